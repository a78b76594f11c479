package io.spiffeidt.support.identity;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.env.Environment;

/**
 * The start-up report of a map keyed by workload ({@code spiffeidt.endpoints}, {@code spiffeidt.ids},
 * {@code spiffeidt.pooling.overrides}) with a key that names no workload, in place of Boot's "No enum
 * constant ...Role.target". The usual cause is an environment variable that spells a workload with an
 * underscore: {@code SPIFFEIDT_ENDPOINTS_M_TIER} binds the key {@code m}, since an underscore there
 * separates two levels of the property name. The report names the property, the key, where it came
 * from, and the accepted spellings in YAML or an argument and in an environment variable.
 *
 * <p>Ordered before Boot's {@code BindFailureAnalyzer}, which would list the enum constants. Thread
 * safety: stateless.
 */
public class WorkloadKeyFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    private final Environment environment;

    /**
     * @param environment the failed application's environment, to name where the bad key came from;
     *     {@code null} names no origin
     */
    public WorkloadKeyFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        UnknownKeyException unknown = findCause(rootFailure, UnknownKeyException.class);
        if (unknown == null) {
            unknown = unknownRoleKey(rootFailure, cause);
        }
        if (unknown == null) {
            return null;
        }
        String origin = origin(unknown.property(), unknown.key());
        return new FailureAnalysis(
                describe(unknown.property(), unknown.key(), unknown.acceptedKeys())
                        + (origin == null ? "" : " It came from " + origin + "."),
                action(unknown.property(), unknown.acceptedKeys()),
                cause);
    }

    /** The keys of a map keyed by workload: the workload names. */
    public static List<String> workloadKeys() {
        return Arrays.stream(Role.values()).map(Role::workloadName).sorted().toList();
    }

    /** A map keyed by {@link Role} whose key did not convert. */
    private UnknownKeyException unknownRoleKey(Throwable rootFailure, BindException cause) {
        ConversionFailedException conversion = findCause(rootFailure, ConversionFailedException.class);
        ResolvableType target = cause.getTarget().getType();
        if (conversion == null
                || !Map.class.isAssignableFrom(target.toClass())
                || target.asMap().resolveGeneric(0) != Role.class
                || conversion.getTargetType().getType() != Role.class) {
            return null;
        }
        return new UnknownKeyException(
                cause.getName().toString(), String.valueOf(conversion.getValue()), workloadKeys());
    }

    /** The sentence that names the property, the bad key and the accepted keys. */
    static String describe(String property, String key, List<String> acceptedKeys) {
        return "'" + key + "' is no key of " + property + " (keys: " + String.join(", ", acceptedKeys) + ").";
    }

    /** How to write the keys, in YAML or an argument and in an environment variable. */
    static String action(String property, List<String> acceptedKeys) {
        String example =
                acceptedKeys.stream().filter(k -> k.contains("-")).findFirst().orElse(acceptedKeys.get(0));
        String env = acceptedKeys.stream()
                .map(k -> environmentVariable(property + "." + k))
                .collect(Collectors.joining(", "));
        String split = example.contains("-")
                ? " An underscore in an environment variable separates two levels of the name: "
                        + environmentVariable(property) + "_"
                        + example.replace('-', '_').replace('.', '_').toUpperCase(Locale.ROOT)
                        + " would bind the key '" + example.substring(0, example.indexOf('-')) + "'."
                : "";
        return "Write the key as in YAML or an argument (--" + property + "." + example
                + "=...), or in an environment variable without the hyphens: " + env + "." + split;
    }

    /** The environment variable of a property: dots as underscores, no hyphens, upper case. */
    static String environmentVariable(String property) {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** Where a key of the map came from, or {@code null} when unknown. */
    private String origin(String property, String key) {
        if (environment == null) {
            return null;
        }
        ConfigurationPropertyName entry;
        try {
            entry = ConfigurationPropertyName.of(property).append(key);
        } catch (RuntimeException e) {
            return null;
        }
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                for (ConfigurationPropertyName name : iterable) {
                    if (name.equals(entry) || entry.isAncestorOf(name)) {
                        ConfigurationProperty found = iterable.getConfigurationProperty(name);
                        if (found != null && found.getOrigin() != null) {
                            return found.getOrigin().toString();
                        }
                    }
                }
            }
        }
        return null;
    }
}
