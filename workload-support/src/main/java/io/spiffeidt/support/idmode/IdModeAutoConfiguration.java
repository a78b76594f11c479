package io.spiffeidt.support.idmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.identity.IdentityAutoConfiguration;
import io.spiffeidt.support.identity.WorkloadIdentity;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The ID-Mode hop of this workload. */
@AutoConfiguration(
        after = {
            SpiffeIdtAutoConfiguration.class,
            IdentityAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            HopAutoConfiguration.class
        })
public class IdModeAutoConfiguration {

    /**
     * This workload's ID-Mode hop: its verifier and the layers it signs, with the memos {@code
     * spiffeidt.memo.idmode-*} and {@code oauth-proof}.
     */
    @Bean
    @ConditionalOnMissingBean
    public IdModeHop idModeHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            VerifiedProofs verifiedProofs,
            Memos memos,
            ObjectProvider<HopServices> hopServices) {
        IdModeHop hop = new IdModeHop(identity, provider, profile, limits, timeRules, memos);
        hop.proofs().useVerifiedProofs(verifiedProofs);
        hop.connect(hopServices.getIfAvailable(HopServices::standalone));
        return hop;
    }
}
