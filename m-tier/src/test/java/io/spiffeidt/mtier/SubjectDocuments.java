package io.spiffeidt.mtier;

import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import java.time.Instant;

/**
 * What the subject workload presents to the m-tier, made with the hops of the asserting and
 * subject workloads (test identities): a document minted for {@code user} by the asserting workload
 * and extended by the subject workload with a layer addressed to the m-tier.
 */
final class SubjectDocuments {

    static final String IDP = "https://idp.example";

    /** The subject workload's SVID source (the mTLS client the m-tier sees as presenter). */
    static final StaticX509Source SUBJECT = TestIdentities.source(Role.SUBJECT_WL);

    static final StaticX509Source ASSERTING = TestIdentities.source(Role.ASSERTING_WL);

    private final IdModeHop idModeAsserting = TestHops.idModeAsserting(ASSERTING);
    private final IdModeHop idModeSubject = TestHops.idMode(Role.SUBJECT_WL, SUBJECT);
    private final AnonModeHop anonAsserting = TestHops.anonModeAsserting(ASSERTING);
    private final AnonModeHop anonSubject = TestHops.anonMode(Role.SUBJECT_WL, SUBJECT);
    private final LsvidHop lsvidSubject = TestHops.lsvid(Role.SUBJECT_WL, SUBJECT);
    private final LsvidHop lsvidAsserting = TestHops.lsvid(Role.ASSERTING_WL, ASSERTING);

    /** An ID-Mode token (and artifacts) of depth 2 addressed to the m-tier. */
    DocumentRequest idMode(String user) {
        var root = idModeAsserting
                .minting()
                .orElseThrow()
                .mint(new Grant(idModeSubject.self(), IDP, user, Instant.now().plusSeconds(300)))
                .document();
        var atSubject =
                idModeSubject.accept(new Received(root.token(), root.artifacts().toJson()));
        Outgoing extended = idModeSubject.forward(atSubject, Role.M_TIER);
        return new DocumentRequest(extended.token(), null, extended.artifacts());
    }

    /** An Anon-Mode root minted by the asserting workload, and the subject's extension of it. */
    AnonPair anonMode(String user) {
        var root = anonAsserting
                .minting()
                .orElseThrow()
                .mint(new Grant(anonSubject.self(), IDP, user, Instant.now().plusSeconds(300)))
                .document();
        return new AnonPair(
                root.token(), anonSubject.forward(root.token(), Role.M_TIER).token());
    }

    /** An LSVID with the asserting workload's delegation, extended by the subject to the m-tier. */
    Lsvid lsvid(String user) {
        Outgoing request = lsvidSubject.begin(Role.ASSERTING_WL);
        Caller subject = new Caller(
                lsvidSubject.self(),
                SUBJECT.getX509Svid().getLeaf(),
                SUBJECT.getX509Svid().getLeaf().getPublicKey());
        var delegated = lsvidAsserting.mint(
                Received.of(request.token()),
                subject,
                new Grant(lsvidSubject.self(), IDP, user, Instant.now().plusSeconds(300)));
        Verified<Lsvid> atSubject = lsvidSubject.accept(Received.of(delegated.token()));
        return LsvidCodec.decode(lsvidSubject.forward(atSubject, Role.M_TIER).token());
    }

    /** An Anon-Mode root token and the subject's extension of it (what it presents). */
    record AnonPair(String root, String extended) {}
}
