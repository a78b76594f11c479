package io.spiffeidt.inspect;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.idmode.IdModeSettings;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.core.idmode.TrustBundleSource;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.core.zkp.RsaSignatureProof;
import io.spiffeidt.core.zkp.ZkProofCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Provider;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * Verifies a detected document with the core verifier of its format and records the outcome in the
 * report: the verdict, the error code, layer and message, and on success the verified layers and
 * the delegation. Whatever is not pinned by an option (the asserting workload, the verifier) is
 * taken from the document and said so in a note.
 */
final class Verification {

    private static final Provider PROVIDER = new BouncyCastleProvider();

    private Verification() {}

    /** Verifies {@code doc}; returns whether it is valid. */
    static boolean verify(Detector.Document doc, Report report, VerifyOptions o) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("profile", o.profile().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        v.put("at", o.at().toString());
        report.verification = v;
        Clock clock = Clock.fixed(o.at(), ZoneOffset.UTC);
        TimeRules time =
                new TimeRules(clock, o.skew(), TimeRules.defaults(clock).lifetime(), o.originalMaxAge());
        try {
            VerifiedResult result =
                    switch (doc.format()) {
                        case DVID -> dvid(doc, report, o, time);
                        case ID_MODE -> idMode(doc, report, o, time);
                        case ANON_MODE -> anonMode(doc, report, o, time);
                        case LSVID -> lsvid(doc, report, o, time);
                        case ZKP -> {
                            zkp(doc, report, o);
                            yield null;
                        }
                    };
            v.put("verdict", "valid");
            v.put("code", null);
            if (result != null) {
                v.put("verifiedLayers", layers(result));
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("dpa", result.delegation().dpa());
                d.put("dpr", result.delegation().dpr());
                d.put("assertedBy", result.delegation().assertedBy());
                v.put("delegation", d);
            }
            return true;
        } catch (AssertionException e) {
            v.put("verdict", "invalid");
            v.put("code", e.code().name());
            e.layer().ifPresent(l -> v.put("layer", l));
            v.put("message", e.getMessage());
            return false;
        }
    }

    // ---- DVID ----

    private static VerifiedResult dvid(Detector.Document doc, Report report, VerifyOptions o, TimeRules time) {
        if (o.key() == null) {
            throw new UsageException(
                    "DVID verification needs --key (the asserting workload's public key, JWK or JWKS)");
        }
        KeyMaterial.Keys keys = KeyMaterial.publicKeys(o.key(), PROVIDER);
        Map<String, Object> claims = claimsOf(doc.text(), 1);
        SpiffeId asserting = pinned(
                o.asserting(), claims == null ? null : claims.get("iss"), "asserting workload", "--asserting", report);
        DvidAlgorithm alg;
        try {
            alg = DvidAlgorithm.fromJwsName("RSA".equals(keys.first().getAlgorithm()) ? "RS256" : "ES256");
        } catch (AssertionException e) {
            throw new UsageException("the DVID key is neither RSA nor EC");
        }
        DvidSettings settings = new DvidSettings(
                asserting,
                asserting.trustDomain(),
                alg,
                o.profile(),
                Limits.defaults(),
                time,
                DvidSettings.DEFAULT_ZKP_ROUNDS);
        DvidKeyResolver resolver = kid -> keys.forKid(kid)
                .orElseThrow(() -> new AssertionException(
                        ErrorCode.UNTRUSTED_KEY, 0, "no key for kid \"" + kid + "\" in " + o.key()));
        IdpKeyResolver idp = null;
        if (o.idpKey() != null) {
            KeyMaterial.Keys idpKeys = KeyMaterial.publicKeys(o.idpKey(), PROVIDER);
            idp = (issuer, kid) -> {
                if (o.idpIssuer() != null && !o.idpIssuer().equals(issuer)) {
                    throw new AssertionException(
                            ErrorCode.UNKNOWN_ISSUER, "OAuth issuer is not the given --idp-issuer");
                }
                PublicKey k = idpKeys.forKid(kid).orElse(null);
                if (!(k instanceof RSAPublicKey rsa)) {
                    throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "no RSA IdP key for kid \"" + kid + "\"");
                }
                return rsa;
            };
            if (o.idpIssuer() == null) {
                report.notes.add("the IdP key is accepted for any OAuth issuer (no --idp-issuer given)");
            }
        }
        if (o.verifier() != null) {
            report.verification.put("verifier", o.verifier().toString());
        }
        VerifiedDvid verified = new DvidVerifier(settings, PROVIDER, resolver, idp).verify(doc.text(), o.verifier());
        report.verification.put("subject", verified.subject().toString());
        report.verification.put("proofVerified", verified.embeddedZkp().isPresent());
        return verified.result();
    }

    // ---- ID-Mode ----

    private static VerifiedResult idMode(Detector.Document doc, Report report, VerifyOptions o, TimeRules time) {
        String artifactsText = doc.artifacts();
        if (artifactsText == null) {
            throw new UsageException(
                    "ID-Mode verification needs --artifacts (the certificate side-car) or a {token, artifacts} input");
        }
        TrustBundleSource bundles = TrustBundleSource.of(bundles(o, report));
        List<Map<String, Object>> layers = report.layers;
        Object rootIss = layers.isEmpty() ? null : layers.get(layers.size() - 1).get("issuer");
        SpiffeId asserting = pinned(o.asserting(), rootIss, "asserting workload", "--asserting", report);
        Object outerAud = layers.isEmpty() ? null : layers.get(0).get("audience");
        SpiffeId verifier = pinned(o.verifier(), outerAud, "verifier", "--verifier", report);
        IdModeArtifacts artifacts = IdModeArtifacts.parse(artifactsText, Limits.defaults());
        IdModeSettings settings = new IdModeSettings(asserting, bundles, o.profile(), Limits.defaults(), time);
        IdModeVerifier verifier0 = new IdModeVerifier(settings, PROVIDER, Memos.none());
        if (o.presenter() == null) {
            report.notes.add("no --presenter: the mTLS presenter binding was not checked");
            return verifier0
                    .verifyWithoutPresenter(doc.text(), artifacts, verifier)
                    .result();
        }
        Presenter peer = Presenter.of(presenterCertificate(o.presenter()));
        report.verification.put("presenter", peer.id().toString());
        return verifier0.verify(doc.text(), artifacts, verifier, peer).result();
    }

    // ---- Anon-Mode ----

    private static VerifiedResult anonMode(Detector.Document doc, Report report, VerifyOptions o, TimeRules time) {
        List<Map<String, Object>> layers = report.layers;
        Object rootAud = layers.isEmpty() ? null : layers.get(layers.size() - 1).get("audience");
        SpiffeId subject = pinned(o.subject(), rootAud, "subject workload", "--subject", report);
        SpiffeId verifier;
        if (o.verifier() == null && layers.size() > 1) {
            // the core checks the verifier only against the audience of a root-only token
            verifier = subject;
            report.notes.add("no --verifier: not needed for a token with hops (hops carry no audience)");
        } else {
            verifier = pinned(o.verifier(), rootAud, "verifier", "--verifier", report);
        }
        AnonModeSettings settings = new AnonModeSettings(subject, o.profile(), Limits.defaults(), time, false);
        VerifiedResult result = new AnonModeVerifier(settings).verify(doc.text(), verifier);
        if (o.rootKey() != null) {
            if (!o.rootKey().strip().equals(result.delegation().assertedBy())) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY,
                        0,
                        "the root key is not the given --root-key (inspector check: the services ask the"
                                + " asserting workload to introspect the root instead)");
            }
        } else {
            report.notes.add("no --root-key: the root issuer key was not compared (services introspect it at the"
                    + " asserting workload)");
        }
        return result;
    }

    // ---- LSVID ----

    private static VerifiedResult lsvid(Detector.Document doc, Report report, VerifyOptions o, TimeRules time) {
        if (o.presenter() == null) {
            throw new UsageException("LSVID verification needs --presenter (the peer's leaf certificate, PEM)");
        }
        List<TrustBundle> bundles = bundles(o, report);
        if (bundles.size() != 1) {
            throw new UsageException("LSVID verification takes one trust domain's bundle");
        }
        List<PublicKey> v1Keys = new ArrayList<>();
        for (Path p : o.lsvidIssuerKeys()) {
            v1Keys.add(KeyMaterial.publicKey(p, PROVIDER));
        }
        List<Map<String, Object>> layers = report.layers;
        Object outerAud = layers.isEmpty() ? null : layers.get(0).get("audience");
        SpiffeId verifier = pinned(o.verifier(), outerAud, "verifier", "--verifier", report);
        DelegationRule rule = o.delegation() == null ? DelegationRule.REQUIRED : o.delegation();
        SpiffeId asserting;
        if (o.asserting() == null && rule == DelegationRule.ABSENT) {
            // no layer may carry a delegation, so no asserting workload is consulted
            asserting = verifier;
        } else {
            asserting = pinned(o.asserting(), delegationIssuer(layers), "asserting workload", "--asserting", report);
        }
        LsvidSettings settings =
                new LsvidSettings(asserting, bundles.get(0), o.profile(), Limits.defaults(), time, v1Keys, PROVIDER);
        Presenter peer = Presenter.of(presenterCertificate(o.presenter()));
        report.verification.put("presenter", peer.id().toString());
        report.verification.put("delegationRule", rule.name().toLowerCase(Locale.ROOT));
        LsvidVerification verified = new LsvidVerifier(settings, Memos.none()).verify(doc.text(), verifier, peer, rule);
        if (verified.delegation() == null) {
            report.verification.put("verifiedLayers", layers(verified.layers()));
            return null;
        }
        return verified.toResult();
    }

    private static Object delegationIssuer(List<Map<String, Object>> layers) {
        for (Map<String, Object> l : layers) {
            if (l.get("dpa") != null || l.get("dpr") != null) {
                return l.get("issuer");
            }
        }
        return null;
    }

    // ---- ZKP ----

    private static void zkp(Detector.Document doc, Report report, VerifyOptions o) {
        if (o.idpKey() == null || o.zkpMsg() == null) {
            throw new UsageException("proof verification needs --idp-key and --zkp-msg (the OAuth header.payload)");
        }
        PublicKey key = KeyMaterial.publicKey(o.idpKey(), PROVIDER);
        if (!(key instanceof RSAPublicKey rsa)) {
            throw new UsageException("the IdP key is not an RSA key");
        }
        byte[] msg = Inputs.readFile(o.zkpMsg()).strip().getBytes(StandardCharsets.US_ASCII);
        RsaSignatureProof.verify(ZkProofCodec.parse(doc.text()), msg, rsa, o.profile(), Limits.defaults());
    }

    // ---- helpers ----

    private static List<TrustBundle> bundles(VerifyOptions o, Report report) {
        if (o.bundles().isEmpty()) {
            throw new UsageException("this format needs --bundle (the trust domain's CA certificates, PEM)");
        }
        Map<String, List<X509Certificate>> byDomain = new LinkedHashMap<>();
        for (Path file : o.bundles()) {
            for (X509Certificate ca : KeyMaterial.certificates(file)) {
                String td = o.trustDomain();
                if (td == null) {
                    List<String> ids = KeyMaterial.spiffeIds(ca);
                    if (ids.size() != 1) {
                        throw new UsageException(
                                "cannot tell the trust domain of a CA in " + file + "; give --trust-domain");
                    }
                    td = SpiffeId.parse(ids.get(0)).trustDomain();
                }
                byDomain.computeIfAbsent(td, k -> new ArrayList<>()).add(ca);
            }
        }
        List<TrustBundle> out = new ArrayList<>();
        byDomain.forEach((td, roots) -> out.add(new TrustBundle(td, roots)));
        report.verification.put("trustDomains", List.copyOf(byDomain.keySet()));
        return out;
    }

    private static X509Certificate presenterCertificate(Path file) {
        List<X509Certificate> certs = KeyMaterial.certificates(file);
        return certs.get(0);
    }

    /** The option's value, or the document's own value with a note that it was not pinned. */
    private static SpiffeId pinned(SpiffeId given, Object fromDocument, String what, String option, Report report) {
        if (given != null) {
            report.verification.put(camel(what), given.toString());
            return given;
        }
        if (fromDocument instanceof String s && SpiffeId.isValid(s)) {
            report.notes.add(what + " not pinned (no " + option + "): taken from the document itself, " + s);
            report.verification.put(camel(what), s);
            return SpiffeId.parse(s);
        }
        throw new UsageException("give " + option + " (the " + what + "): the document does not name it");
    }

    private static String camel(String words) {
        String[] w = words.split(" ");
        StringBuilder sb = new StringBuilder(w[0]);
        for (int i = 1; i < w.length; i++) {
            sb.append(Character.toUpperCase(w[i].charAt(0))).append(w[i].substring(1));
        }
        return sb.toString();
    }

    private static Map<String, Object> claimsOf(String token, int segment) {
        String[] parts = token.split("\\.", -1);
        return parts.length > segment ? Detector.jsonObject(parts[segment]) : null;
    }

    private static List<Map<String, Object>> layers(VerifiedResult result) {
        return layers(result.layers());
    }

    private static List<Map<String, Object>> layers(List<LayerInfo> infos) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (LayerInfo l : infos) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("issuer", l.issuer());
            m.put("audience", l.audience());
            m.put("iat", l.issuedAt());
            m.put("exp", l.expiresAt());
            out.add(m);
        }
        return out;
    }

    /** The profile named on the command line. */
    static VerificationProfile profile(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "strict" -> VerificationProfile.STRICT;
            case "original-compatible", "original_compatible", "compatible" -> VerificationProfile.ORIGINAL_COMPATIBLE;
            default -> throw new UsageException("unknown profile " + name + " (strict, original-compatible)");
        };
    }
}
