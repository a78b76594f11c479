package io.spiffeidt.mtier.wimse;

import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.wimse.WimseDocument;
import io.spiffeidt.support.wimse.WimseHop;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The wimse mode at the middle tier (docs/formats/wimse.md): verifies the subject workload's WIT and
 * WPT and the Txn-Token they bind, then calls the target with its own WIT, a new WPT and the
 * Txn-Token as mode txn-token forwards it (replaced while {@code spiffeidt.txn-token.replace} is
 * on); {@link WimseHop#forward} decides.
 */
@RestController
@RequestMapping("/wimse")
public class WimseMiddleTierController extends MiddleTierController<WimseDocument> {

    public WimseMiddleTierController(DownstreamClients clients, WimseHop hop) {
        super(clients, hop);
    }
}
