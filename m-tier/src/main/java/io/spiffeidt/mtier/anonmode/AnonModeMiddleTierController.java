package io.spiffeidt.mtier.anonmode;

import io.spiffeidt.core.anonmode.VerifiedAnonMode;
import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Anon-Mode at the middle tier (docs/design.md, Anon-Mode row): concatenated verification of the token
 * (the root addressed to the subject workload), then, unless switched off, one more anonymous layer
 * signed with the key the token hands over, and the token is forwarded to the target. The root's
 * binding to the asserting workload is checked by the target (introspection).
 */
@RestController
@RequestMapping("/anon-mode")
public class AnonModeMiddleTierController extends MiddleTierController<VerifiedAnonMode> {

    private final boolean extend;

    public AnonModeMiddleTierController(
            DownstreamClients clients, AnonModeHop hop, AnonModeMiddleTierProperties properties) {
        super(clients, hop);
        this.extend = properties.extend();
    }

    /** Verify, then extend unless switched off ({@code spiffeidt.anon-mode.extend}). */
    @Override
    protected Outgoing toTarget(Received received, Caller caller) {
        Verified<VerifiedAnonMode> verified = verify(received, caller);
        return extend ? hop.forward(verified, Role.TARGET_WL) : verified.unchanged();
    }
}
