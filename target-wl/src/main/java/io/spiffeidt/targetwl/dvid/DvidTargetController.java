package io.spiffeidt.targetwl.dvid;

import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * DVID at the target (docs/design.md, DVID row): {@code sub} must be the subject workload; the account
 * is the DVID's {@code dpr}. Where the DVID is verified (here with the asserting workload's keys
 * while the memo {@code dvid-keys} is on, or remotely at the asserting workload with it off, as in
 * the original) is the hop's business ({@link DvidHop#verify}; docs/formats/dvid.md §6).
 */
@RestController
@RequestMapping("/dvid")
public class DvidTargetController extends TargetController<VerifiedDvid> {

    public DvidTargetController(AccountOperations accounts, DvidHop hop) {
        super(accounts, hop);
    }

    @Override
    protected List<String> path(Verified<VerifiedDvid> verified) {
        VerifiedDvid dvid = verified.document();
        return List.of(dvid.result().delegation().assertedBy(), dvid.subject().toString());
    }
}
