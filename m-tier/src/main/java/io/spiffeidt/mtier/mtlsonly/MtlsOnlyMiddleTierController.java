package io.spiffeidt.mtier.mtlsonly;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.mtlsonly.MtlsOnlyHop;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * mtls-only at the middle tier (docs/formats/mtls-only.md): the caller is the subject workload (the
 * allow-list), whose {@value MtlsOnlyHop#USER_HEADER} header is taken at its word and repeated to
 * the target. Nothing is verified about the user beyond the header's form and its issuer.
 */
@RestController
@RequestMapping("/mtls-only")
public class MtlsOnlyMiddleTierController extends MiddleTierController<Delegation> {

    public MtlsOnlyMiddleTierController(DownstreamClients clients, MtlsOnlyHop hop) {
        super(clients, hop);
    }
}
