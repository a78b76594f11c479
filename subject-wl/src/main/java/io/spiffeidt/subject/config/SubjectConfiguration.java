package io.spiffeidt.subject.config;

import io.spiffeidt.subject.session.DocumentSessions;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The subject workload's server-side document sessions. */
@Configuration(proxyBeanMethods = false)
public class SubjectConfiguration {

    @Bean
    DocumentSessions documentSessions(Clock clock, SubjectProperties properties) {
        return new DocumentSessions(clock, properties.renewBefore(), properties.maxSessions());
    }
}
