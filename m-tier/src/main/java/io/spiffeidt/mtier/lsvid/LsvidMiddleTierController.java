package io.spiffeidt.mtier.lsvid;

import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.lsvid.LsvidHop;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * LSVID at the middle tier (docs/design.md, LSVID row): verifies the document offline (anchored bases,
 * every layer, the pinned delegation, audience = this workload, bearer = the mTLS peer by name and
 * key), extends it with {@code aud} = the target and forwards it (a young extension of the same
 * document is reused, see {@link LsvidHop#forward}). No call to the asserting workload.
 */
@RestController
@RequestMapping("/lsvid")
public class LsvidMiddleTierController extends MiddleTierController<Lsvid> {

    public LsvidMiddleTierController(DownstreamClients clients, LsvidHop hop) {
        super(clients, hop);
    }
}
