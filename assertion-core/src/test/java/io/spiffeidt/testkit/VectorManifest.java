package io.spiffeidt.testkit;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.testkit.GoldenVectors.Mode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The expected verdicts of one mode's golden vectors, read from {@code vectors/<mode>/manifest.json}
 * into typed records (the vectors README, section 2, "manifest.json"). The vector files hold what
 * the original code said; the manifest holds what this project answers, under each {@link
 * VerificationProfile}: valid with the claims the result must carry, or invalid with the error code
 * (or the codes, where a tampered byte may fail either way).
 *
 * @param mode the folder
 * @param format the {@code format} every vector file of the folder declares
 * @param now the verifier's clock for the folder's vectors, unless an entry names its own
 * @param entries one per vector file, in file order
 */
public record VectorManifest(Mode mode, String format, Instant now, List<Entry> entries) {

    public VectorManifest {
        entries = List.copyOf(entries);
    }

    /** Reads the manifest of {@code mode} from the classpath. */
    public static VectorManifest load(Mode mode) {
        Map<String, Object> root = Json.parseObject(GoldenVectors.text(mode, GoldenVectors.MANIFEST));
        Instant now = instant(root.get("now"));
        List<Entry> entries =
                list(root.get("vectors")).stream().map(o -> entry(map(o), now)).toList();
        return new VectorManifest(mode, (String) root.get("format"), now, entries);
    }

    /** The entries of one kind, as parameters of a {@code @MethodSource}. */
    public Stream<Entry> entries(Kind kind) {
        return entries.stream().filter(e -> e.kind() == kind);
    }

    /** The entry of {@code vector}; fails when the manifest has none. */
    public Entry entry(String vector) {
        return entries.stream()
                .filter(e -> e.vector().equals(vector))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no manifest entry for " + vector));
    }

    /** What a vector file holds. */
    public enum Kind {
        /** A document a verifier judges. */
        TOKEN,
        /** A zero-knowledge proof, judged against the message and key in the file. */
        PROOF,
        /** Reference values, no verdict. */
        CONSTANTS
    }

    /**
     * One vector's expectation.
     *
     * @param vector the file name without {@code .json}
     * @param kind what the file holds
     * @param audience the SPIFFE ID that verifies (the document's intended audience), or null
     * @param presenter the SPIFFE ID that presents the document over mTLS, or null where the mode
     *     binds no presenter
     * @param now the verifier's clock
     * @param originalCompatible the verdict under {@link VerificationProfile#ORIGINAL_COMPATIBLE}
     * @param strict the verdict under {@link VerificationProfile#STRICT}
     */
    public record Entry(
            String vector,
            Kind kind,
            SpiffeId audience,
            SpiffeId presenter,
            Instant now,
            Verdict originalCompatible,
            Verdict strict) {

        /** The verdict under {@code profile}. */
        public Verdict under(VerificationProfile profile) {
            return profile == VerificationProfile.STRICT ? strict : originalCompatible;
        }

        @Override
        public String toString() {
            return vector;
        }
    }

    /**
     * A verdict: valid with the claims the result carries, or invalid with one of {@code codes}.
     *
     * @param valid whether the verifier accepts
     * @param codes the acceptable error codes when invalid (empty when valid)
     * @param claims what the verified result must carry when valid
     */
    public record Verdict(boolean valid, Set<ErrorCode> codes, ExpectedClaims claims) {

        public Verdict {
            codes = codes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(codes));
        }

        /**
         * Runs {@code verification} and checks that it reaches this verdict: returns a result
         * carrying {@link #claims} (a verification without a result returns null), or throws an
         * {@code AssertionException} with one of {@link #codes}.
         */
        public void assertReachedBy(Supplier<Outcome> verification, String description, Object... args) {
            if (valid) {
                Outcome result = verification.get();
                claims.assertCarriedBy(result, String.format(description, args));
            } else {
                assertThatAssertion(verification::get, description, args).hasCodeIn(codes);
            }
        }
    }

    /**
     * What a verification answered, in the terms of {@link ExpectedClaims}, whether or not the
     * document carries a delegation (a {@link VerifiedResult} always does).
     *
     * @param depth the number of layers
     * @param delegation the delegation, or null
     * @param outermost the outermost layer
     * @param encodedSize the document's size in characters
     */
    public record Outcome(int depth, Delegation delegation, LayerInfo outermost, int encodedSize) {

        /** The outcome of a mode-independent result. */
        public static Outcome of(VerifiedResult result) {
            return new Outcome(result.depth(), result.delegation(), result.outermost(), result.encodedSize());
        }
    }

    /**
     * What a valid verdict's result carries; a null field is not part of the expectation.
     *
     * @param depth the number of layers
     * @param delegated whether the result carries a delegation (dpa, dpr)
     * @param dpr the delegated principal
     * @param dpa the delegating authority
     * @param assertedBy who asserted the delegation
     * @param audience the outermost layer's audience
     * @param issuer the outermost layer's issuer
     * @param subject the document's subject (DVID)
     * @param expiresAt the outermost layer's expiry
     * @param encodedSize the document's size in characters
     */
    public record ExpectedClaims(
            Integer depth,
            boolean delegated,
            String dpr,
            String dpa,
            String assertedBy,
            String audience,
            String issuer,
            String subject,
            Instant expiresAt,
            Integer encodedSize) {

        static final ExpectedClaims NONE =
                new ExpectedClaims(null, false, null, null, null, null, null, null, null, null);

        /** Checks {@code result} against every expectation given; null only where none is given. */
        public void assertCarriedBy(Outcome result, String vector) {
            if (equals(NONE)) {
                return;
            }
            assertThat(result).as("%s: verified result", vector).isNotNull();
            if (depth != null) {
                assertThat(result.depth()).as("%s: depth", vector).isEqualTo(depth);
            }
            if (!delegated) {
                assertThat(result.delegation()).as("%s: delegation", vector).isNull();
            } else {
                assertThat(result.delegation()).as("%s: delegation", vector).isNotNull();
                expect(result.delegation().dpr(), dpr, vector, "dpr");
                expect(result.delegation().dpa(), dpa, vector, "dpa");
                expect(result.delegation().assertedBy(), assertedBy, vector, "asserted by");
            }
            expect(result.outermost().audience(), audience, vector, "audience");
            expect(result.outermost().issuer(), issuer, vector, "issuer");
            expect(result.outermost().expiresAt(), expiresAt, vector, "expiry");
            if (encodedSize != null) {
                assertThat(result.encodedSize()).as("%s: encoded size", vector).isEqualTo(encodedSize);
            }
        }

        private static void expect(Object actual, Object expected, String vector, String what) {
            if (expected != null) {
                assertThat(actual).as("%s: %s", vector, what).isEqualTo(expected);
            }
        }
    }

    private static Entry entry(Map<String, Object> o, Instant folderNow) {
        Kind kind = Kind.valueOf(((String) o.get("kind")).toUpperCase(Locale.ROOT));
        Instant now = o.containsKey("now") ? instant(o.get("now")) : folderNow;
        return new Entry(
                (String) o.get("vector"),
                kind,
                spiffeId(o.get("audience")),
                spiffeId(o.get("presenter")),
                now,
                verdict(o.get("original_compatible")),
                verdict(o.get("strict")));
    }

    private static Verdict verdict(Object o) {
        if (o == null) {
            return null;
        }
        Map<String, Object> v = map(o);
        String result = (String) v.get("result");
        if ("valid".equals(result)) {
            return new Verdict(true, Set.of(), claims(v.get("claims")));
        }
        if (!"invalid".equals(result)) {
            throw new IllegalArgumentException("result must be valid or invalid: " + result);
        }
        List<ErrorCode> codes = list(v.get("codes")).stream()
                .map(c -> ErrorCode.valueOf((String) c))
                .toList();
        if (codes.isEmpty()) {
            throw new IllegalArgumentException("an invalid verdict names its error codes");
        }
        return new Verdict(false, Set.copyOf(codes), ExpectedClaims.NONE);
    }

    private static ExpectedClaims claims(Object o) {
        if (o == null) {
            return ExpectedClaims.NONE;
        }
        Map<String, Object> c = map(o);
        boolean delegated = c.containsKey("delegated") ? (Boolean) c.get("delegated") : c.containsKey("dpr");
        return new ExpectedClaims(
                integer(c.get("depth")),
                delegated,
                (String) c.get("dpr"),
                (String) c.get("dpa"),
                (String) c.get("asserted_by"),
                (String) c.get("audience"),
                (String) c.get("issuer"),
                (String) c.get("subject"),
                instant(c.get("expires_at")),
                integer(c.get("encoded_size")));
    }

    private static Integer integer(Object o) {
        return o == null ? null : ((BigInteger) o).intValueExact();
    }

    private static Instant instant(Object o) {
        return o == null ? null : Instant.parse((String) o);
    }

    private static SpiffeId spiffeId(Object o) {
        return o == null ? null : SpiffeId.parse((String) o);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }
}
