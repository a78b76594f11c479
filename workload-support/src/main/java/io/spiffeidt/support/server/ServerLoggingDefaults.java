package io.spiffeidt.support.server;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps what a client sent out of the log, below every other property source (so any setting wins):
 * Tomcat logs a request it cannot parse, once at INFO with a stack trace and then at DEBUG, quoting
 * the offending header line, cookie or parameter, which for {@code Authorization} is the user's
 * access token. Its user-data loggers are set to WARN; the request itself is still answered 400 as a
 * problem detail ({@code ProblemErrorReportValve}).
 *
 * <p>Runs right after the configuration files are loaded. Thread safety: stateless.
 */
public class ServerLoggingDefaults implements EnvironmentPostProcessor, Ordered {

    /** The name of the property source of these defaults. */
    static final String SOURCE = "spiffeidtServerLoggingDefaults";

    /** Tomcat's loggers that quote the client's bytes. */
    static final String[] USER_DATA_LOGGERS = {
        "org.apache.coyote.http11.Http11Processor",
        "org.apache.coyote.http2.Http2Parser",
        "org.apache.tomcat.util.http.parser.Cookie",
        "org.apache.tomcat.util.http.Rfc6265CookieProcessor",
        "org.apache.tomcat.util.http.Parameters",
    };

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> defaults = new LinkedHashMap<>();
        for (String logger : USER_DATA_LOGGERS) {
            defaults.put("logging.level." + logger, "WARN");
        }
        environment.getPropertySources().remove(SOURCE);
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
