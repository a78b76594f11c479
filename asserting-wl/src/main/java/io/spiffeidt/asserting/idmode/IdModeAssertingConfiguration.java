package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.introspection.IntrospectionEntry;
import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.idmode.IdModeHop;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The asserting workload's ID-Mode hop, which mints roots, and its kept proofs. */
@Configuration(proxyBeanMethods = false)
public class IdModeAssertingConfiguration {

    /** The ID-Mode hop of the asserting workload: the one that mints root layers. */
    @Bean
    IdModeHop idModeHop(HopParts parts, IdModeAssertingProperties settings) {
        return new IdModeHop(parts, settings.lifetime());
    }

    /**
     * The OAuth check and the kept proofs of ID-Mode roots (the introspection store of {@code
     * spiffeidt.asserting.introspection.store}).
     */
    @Bean
    UserProofs.Kept idModeProofs(
            UserProofs users,
            @Qualifier("idModeIntrospectionStore") IntrospectionStore<IntrospectionEntry> store,
            IdModeAssertingProperties settings) {
        return users.keeping(Mode.ID_MODE, store, settings.zkp(), settings.zkpRounds());
    }
}
