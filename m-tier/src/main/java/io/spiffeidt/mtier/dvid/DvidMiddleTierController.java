package io.spiffeidt.mtier.dvid;

import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.dvid.DvidHop;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * DVID at the middle tier (docs/design.md, DVID row): validation at the asserting workload, then its
 * introspection and the proof check against the DVID's {@code dpa}/{@code dpr} ({@link
 * DvidHop#introspection()}: one call with the memo {@code oauth-proof} on, two with it off, as
 * in the original; {@code spiffeidt.dvid.introspect=false} validates only); the DVID is forwarded
 * unchanged.
 */
@RestController
@RequestMapping("/dvid")
public class DvidMiddleTierController extends MiddleTierController<VerifiedDvid> {

    public DvidMiddleTierController(DownstreamClients clients, DvidHop hop, DvidMiddleTierProperties properties) {
        super(clients, hop, properties.introspect());
    }
}
