package io.spiffeidt.devstack;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./mvnw -pl devstack spring-boot:run}: starts the whole system in one JVM and prints where
 * each component listens. Options (as {@code --key=value} arguments or system properties):
 * {@code spiffeidt.devstack.ports.<component>} (and {@code <component>.management}; 0 picks a free
 * port), {@code spiffeidt.devstack.socket-dir}, {@code spiffeidt.devstack.trust-domain}; any other
 * {@code --spiffeidt.*} argument goes to every workload (e.g. {@code
 * --spiffeidt.pooling.profile=pooled}).
 */
public final class DevStackMain {

    private static final String PREFIX = "spiffeidt.devstack.";

    private DevStackMain() {}

    public static void main(String[] args) throws InterruptedException {
        DevStackSettings settings = DevStackSettings.defaults();
        java.util.Map<String, String> options = new java.util.LinkedHashMap<>();
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("spiffeidt."))
                .forEach(k -> options.put(k, System.getProperty(k)));
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                System.err.println("ignoring argument " + arg + " (expected --key=value)");
                continue;
            }
            String kv = arg.substring(2);
            options.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        for (var e : options.entrySet()) {
            String key = e.getKey();
            if (key.startsWith(PREFIX + "ports.")) {
                settings =
                        settings.withPort(key.substring((PREFIX + "ports.").length()), Integer.parseInt(e.getValue()));
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
            }
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
