package io.spiffeidt.devstack;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./mvnw -pl devstack spring-boot:run}: starts the whole system in one JVM and prints where
 * each component listens. Options (as {@code --key=value} arguments or system properties):
 * {@code spiffeidt.devstack.ports.<component>} (and {@code <component>.management}; 0 picks a free
 * port), {@code spiffeidt.devstack.socket-dir}, {@code spiffeidt.devstack.trust-domain}; a {@code
 * spiffeidt.idp.*} argument goes to the development IdP; any other argument goes to every workload
 * (e.g. {@code --spiffeidt.pooling.profile=pooled}). An argument that is not {@code --key=value}, or
 * an unknown {@code spiffeidt.devstack.*} key, stops the launcher with exit code 2.
 */
public final class DevStackMain {

    private static final String PREFIX = "spiffeidt.devstack.";

    private DevStackMain() {}

    /**
     * The stack's settings from the launcher's arguments and the JVM's {@code spiffeidt.*} system
     * properties (an argument wins).
     *
     * @throws IllegalArgumentException for an argument that is not {@code --key=value}, an unknown
     *     {@code spiffeidt.devstack.*} key or a port that is no number: a setting the launcher cannot
     *     hand on is never dropped silently
     */
    static DevStackSettings settings(String[] args, Map<String, String> systemProperties) {
        DevStackSettings settings = DevStackSettings.defaults();
        Map<String, String> options = new LinkedHashMap<>();
        systemProperties.forEach((k, v) -> {
            if (k.startsWith("spiffeidt.")) {
                options.put(k, v);
            }
        });
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("argument " + arg + " is not --key=value");
            }
            String kv = arg.substring(2);
            options.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        for (var e : options.entrySet()) {
            String key = e.getKey();
            if (key.startsWith(PREFIX + "ports.")) {
                String component = key.substring((PREFIX + "ports.").length());
                if (!DevStackSettings.DEFAULT_PORTS.containsKey(component)) {
                    throw new IllegalArgumentException(
                            "unknown port " + key + " (known: " + DevStackSettings.DEFAULT_PORTS.keySet() + ")");
                }
                settings = settings.withPort(component, port(key, e.getValue()));
            } else if (key.equals(PREFIX + "socket-dir")) {
                settings = settings.withSocketDir(Path.of(e.getValue()));
            } else if (key.equals(PREFIX + "trust-domain")) {
                settings = new DevStackSettings(
                        e.getValue(),
                        settings.socketDir(),
                        settings.ports(),
                        settings.svidTtl(),
                        settings.properties(),
                        settings.workloadProperties());
            } else if (!key.startsWith(PREFIX)) {
                settings = settings.withProperty(key, e.getValue());
            } else {
                throw new IllegalArgumentException("unknown launcher setting " + key + " (known: " + PREFIX
                        + "ports.<component>, " + PREFIX + "socket-dir, " + PREFIX + "trust-domain)");
            }
        }
        return settings;
    }

    private static int port(String key, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a port number: " + value);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> system = new LinkedHashMap<>();
        System.getProperties().stringPropertyNames().forEach(k -> system.put(k, System.getProperty(k)));
        DevStackSettings settings;
        try {
            settings = settings(args, system);
        } catch (IllegalArgumentException e) {
            System.err.println("devstack: " + e.getMessage());
            System.exit(2);
            return;
        }
        DevStack stack = DevStack.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stack.close();
                            stopped.countDown();
                        },
                        "devstack-shutdown"));
        System.out.println();
        System.out.println("SPIFFE-IdT devstack is up:");
        System.out.println(stack.describe());
        System.out.println("Try: TOKEN=$(curl -s -d username=user0001 -d password=password " + stack.idpUrl()
                + "/dev/token | jq -r .access_token)");
        System.out.println(
                "     curl -s -X POST -H \"Authorization: Bearer $TOKEN\" " + stack.subjectUrl() + "/api/dvid/mint");
        System.out.println("Ctrl-C stops everything.");
        stopped.await();
    }
}
