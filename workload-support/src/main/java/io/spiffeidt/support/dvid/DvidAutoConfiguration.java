package io.spiffeidt.support.dvid;

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

/** The DVID hop of this workload. */
@AutoConfiguration(
        after = {
            SpiffeIdtAutoConfiguration.class,
            IdentityAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            HopAutoConfiguration.class
        })
public class DvidAutoConfiguration {

    /**
     * This workload's DVID hop, with the memos {@code spiffeidt.memo.dvid-keys} (whether DVIDs are
     * verified locally) and {@code oauth-proof}.
     */
    @Bean
    @ConditionalOnMissingBean
    public DvidHop dvidHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            VerifiedProofs verifiedProofs,
            Memos memos,
            ObjectProvider<HopServices> hopServices) {
        DvidHop hop = new DvidHop(identity, provider, profile, limits, timeRules, memos);
        hop.proofs().useVerifiedProofs(verifiedProofs);
        hop.connect(hopServices.getIfAvailable(HopServices::standalone));
        return hop;
    }
}
