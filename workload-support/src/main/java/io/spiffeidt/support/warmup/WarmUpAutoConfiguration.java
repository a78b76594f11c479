package io.spiffeidt.support.warmup;

import io.spiffeidt.support.client.ClientAutoConfiguration;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.server.ServerAutoConfiguration;
import io.spiffeidt.support.server.WorkloadServerProperties;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The start-up warm-up ({@link StartupWarmUp}), when {@code spiffeidt.warm-up.requests} is set. Its
 * bean name makes its health contributor {@code warmUp}.
 */
@AutoConfiguration(after = {ClientAutoConfiguration.class, ServerAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(name = "spiffeidt.warm-up.requests")
@EnableConfigurationProperties({WarmUpProperties.class, WorkloadServerProperties.class})
public class WarmUpAutoConfiguration {

    /** Calls the workload's own server before it reports ready. */
    @Bean
    public StartupWarmUp warmUp(
            WarmUpProperties settings,
            DownstreamClients clients,
            WorkloadServerProperties server,
            ApplicationContext context,
            Environment environment) {
        return new StartupWarmUp(settings, clients::selfClient, new StartupWarmUp.Endpoints() {
            @Override
            public URI base() {
                int port =
                        ((WebServerApplicationContext) context).getWebServer().getPort();
                String address = environment.getProperty("server.address", "127.0.0.1");
                String host = address.equals("0.0.0.0") || address.equals("::") ? "127.0.0.1" : address;
                return URI.create((server.mtls() ? "https" : "http") + "://" + hostLiteral(host) + ":" + port);
            }

            @Override
            public boolean mtls() {
                return server.mtls();
            }

            @Override
            public Map<RequestMappingInfo, HandlerMethod> mappings() {
                Map<RequestMappingInfo, HandlerMethod> all = new LinkedHashMap<>();
                context.getBeansOfType(RequestMappingHandlerMapping.class)
                        .values()
                        .forEach(m -> all.putAll(m.getHandlerMethods()));
                return all;
            }
        });
    }

    private static String hostLiteral(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
