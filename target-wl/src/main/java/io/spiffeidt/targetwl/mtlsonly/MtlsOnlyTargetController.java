package io.spiffeidt.targetwl.mtlsonly;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.mtlsonly.MtlsOnlyHop;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * mtls-only at the target (docs/formats/mtls-only.md): the caller is the middle tier (the
 * allow-list), and its {@value MtlsOnlyHop#USER_HEADER} header names the account. The target can
 * verify nothing about the user: it trusts the middle tier's word.
 */
@RestController
@RequestMapping("/mtls-only")
public class MtlsOnlyTargetController extends TargetController<Delegation> {

    public MtlsOnlyTargetController(AccountOperations accounts, MtlsOnlyHop hop) {
        super(accounts, hop);
    }

    /** All the target knows of the path: its mTLS caller, then itself. */
    @Override
    protected List<String> path(Verified<Delegation> verified) {
        return List.of(verified.result().outermost().issuer(), hop.self().toString());
    }
}
