package io.spiffeidt.support.identity;

import java.util.List;

/**
 * A configuration map keyed by workload (or by mode and workload) has a key that names none: the
 * report of {@link WorkloadKeyFailureAnalyzer} names the property, the key and the accepted
 * spellings.
 *
 * <p>Thread safety: immutable.
 */
public class UnknownKeyException extends IllegalArgumentException {

    private final String property;
    private final String key;
    private final List<String> acceptedKeys;

    /**
     * @param property the map property, e.g. {@code spiffeidt.pooling.overrides}
     * @param key the key as bound
     * @param acceptedKeys every key the map accepts, in the YAML spelling ({@code dvid.asserting-wl})
     */
    public UnknownKeyException(String property, String key, List<String> acceptedKeys) {
        super(WorkloadKeyFailureAnalyzer.describe(property, key, acceptedKeys));
        this.property = property;
        this.key = key;
        this.acceptedKeys = List.copyOf(acceptedKeys);
    }

    /** The map property. */
    public String property() {
        return property;
    }

    /** The key as bound. */
    public String key() {
        return key;
    }

    /** The accepted keys, YAML spelling. */
    public List<String> acceptedKeys() {
        return acceptedKeys;
    }
}
