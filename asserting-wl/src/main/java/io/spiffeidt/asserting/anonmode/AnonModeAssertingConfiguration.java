package io.spiffeidt.asserting.anonmode;

import io.spiffeidt.asserting.introspection.IntrospectionEntry;
import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.asserting.introspection.ZkpTiming;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.anonmode.AnonModeProperties;
import io.spiffeidt.support.hop.HopParts;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The asserting workload's Anon-Mode hop, which mints roots with a fresh random key per token, and
 * its kept proofs.
 */
@Configuration(proxyBeanMethods = false)
public class AnonModeAssertingConfiguration {

    /** The Anon-Mode hop of the asserting workload: the one that mints roots. */
    @Bean
    AnonModeHop anonModeHop(HopParts parts, AnonModeProperties mode, AnonModeAssertingProperties settings) {
        return new AnonModeHop(parts, mode.includeIid(), settings.lifetime());
    }

    /**
     * The OAuth check and the kept proofs of Anon-Mode roots (the introspection store of {@code
     * spiffeidt.asserting.introspection.store}). {@code zkp: off} is refused, whatever the store.
     */
    @Bean
    UserProofs.Kept anonModeProofs(
            UserProofs users,
            @Qualifier("anonModeIntrospectionStore") IntrospectionStore<IntrospectionEntry> store,
            AnonModeAssertingProperties settings) {
        if (settings.zkp() == ZkpTiming.OFF) {
            throw new IllegalStateException("spiffeidt.anon-mode.zkp=off is not supported: "
                    + "introspection is what binds an Anon-Mode root to this workload");
        }
        return users.keeping(Mode.ANON_MODE, store, settings.zkp(), settings.zkpRounds());
    }
}
