package io.spiffeidt.support.problem;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;

/** Every failure of a servlet workload becomes an RFC 9457 problem detail with a {@code code}. */
@AutoConfiguration(beforeName = "org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class ProblemDetailsAutoConfiguration {

    /** Maps failures to problem details. */
    @Bean
    @ConditionalOnMissingBean
    public ProblemDetailsAdvice problemDetailsAdvice() {
        return new ProblemDetailsAdvice();
    }

    /** {@code /error} as a problem detail with a code (Boot's error controller backs off). */
    @Bean
    public ProblemErrorController spiffeIdtErrorController() {
        return new ProblemErrorController();
    }

    /** What Tomcat answers itself (a header over its limit) as a problem detail, not its HTML page. */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> spiffeIdtErrorReportCustomizer() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }
}
