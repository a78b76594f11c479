package io.spiffeidt.mtier.idmode;

import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.idmode.IdModeHop;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode at the middle tier (docs/design.md, ID-Mode row): verifies the token and its presenter (the
 * mTLS peer, by SPIFFE ID and key), extends it with {@code aud} = the target workload, and forwards
 * the longer token with its artifacts. Outside the {@code thesis} pooling profile the same token
 * received again gets the same young extension ({@link IdModeHop#forward}).
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeMiddleTierController extends MiddleTierController<VerifiedIdMode> {

    public IdModeMiddleTierController(DownstreamClients clients, IdModeHop hop) {
        super(clients, hop);
    }
}
