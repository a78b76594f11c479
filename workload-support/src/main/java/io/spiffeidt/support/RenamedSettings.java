package io.spiffeidt.support;

import io.spiffeidt.support.memo.MemoProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Stops a workload whose configuration still sets a renamed key (docs/settings.md "Renamed keys"),
 * instead of ignoring it: an old {@code spiffeidt.asserting.dvid.key-path} left in a
 * deployment would otherwise give every replica a fresh DVID key, and an old memo size would
 * silently fall back to the default. The key is found in any property source and spelling (YAML, an
 * argument, {@code SPIFFEIDT_ASSERTING_DVID_KEYPATH}); the message names the new key.
 *
 * <p>Runs right after the configuration files are loaded. Thread safety: stateless.
 */
public class RenamedSettings implements EnvironmentPostProcessor, Ordered {

    /** Old key or prefix → its replacement. */
    static final Map<String, String> RENAMED = renamed();

    private static Map<String, String> renamed() {
        Map<String, String> renamed = new LinkedHashMap<>(Map.ofEntries(
                Map.entry("spiffeidt.asserting.dvid", "spiffeidt.dvid"),
                Map.entry("spiffeidt.asserting.id-mode", "spiffeidt.id-mode"),
                Map.entry("spiffeidt.asserting.anon-mode", "spiffeidt.anon-mode"),
                Map.entry("spiffeidt.mtier.dvid.introspect", "spiffeidt.dvid.introspect"),
                Map.entry("spiffeidt.mtier.anon-mode.extend", "spiffeidt.anon-mode.extend"),
                Map.entry("spiffeidt.target.id-mode.introspect", "spiffeidt.id-mode.introspect"),
                Map.entry("spiffeidt.proof-memo", "spiffeidt.memo.uses.oauth-proof (max-entries is now size)"),
                Map.entry("spiffeidt.token-memo", "spiffeidt.memo.uses.oauth-token (max-entries is now size)")));
        // the memos' settings became one map beside the global switch spiffeidt.memo.enabled
        MemoProperties.NAMES.forEach(name -> renamed.put("spiffeidt.memo." + name, "spiffeidt.memo.uses." + name));
        return Map.copyOf(renamed);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, String> renamed : RENAMED.entrySet()) {
            ConfigurationPropertyName old = ConfigurationPropertyName.of(renamed.getKey());
            for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
                if (source.getConfigurationProperty(old) != null
                        || source.containsDescendantOf(old) == ConfigurationPropertyState.PRESENT) {
                    found.add(renamed.getKey() + " → " + renamed.getValue());
                    break;
                }
            }
        }
        if (!found.isEmpty()) {
            found.sort(null);
            throw new IllegalStateException("renamed settings are not read any more; set the new keys instead"
                    + " (docs/settings.md \"Renamed keys\"): " + String.join(", ", found));
        }
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
