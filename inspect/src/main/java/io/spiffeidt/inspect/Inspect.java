package io.spiffeidt.inspect;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The document inspector: {@code decode} shows any of the four documents (or a DVID proof) layer by
 * layer; {@code verify} also runs the core verifier of its format. Exit codes: {@link #EXIT_VALID},
 * {@link #EXIT_INVALID}, {@link #EXIT_USAGE}. Tokens, signatures' secret parts and private keys are
 * never printed.
 */
@Command(
        name = "spiffeidt-inspect",
        mixinStandardHelpOptions = true,
        version = "spiffeidt-inspect 0.1.0",
        description = "Decodes and verifies SPIFFE-IdT documents: DVID, ID-Mode, Anon-Mode, LSVID.",
        subcommands = {Inspect.Decode.class, Inspect.Verify.class},
        exitCodeOnInvalidInput = Inspect.EXIT_USAGE,
        exitCodeOnExecutionException = Inspect.EXIT_USAGE)
public final class Inspect implements Callable<Integer> {

    /** The document decoded (decode) or verified (verify). */
    public static final int EXIT_VALID = 0;

    /** The document does not verify (verify) or does not decode (decode). */
    public static final int EXIT_INVALID = 1;

    /** A usage error: a missing file, an unknown option, an undetectable format. */
    public static final int EXIT_USAGE = 2;

    private final InputStream stdin;
    private final PrintStream out;
    private final PrintStream err;

    private Inspect(InputStream stdin, PrintStream out, PrintStream err) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
    }

    /** Runs the inspector and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /**
     * Runs the inspector in process.
     *
     * @return the exit code
     */
    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        Inspect root = new Inspect(stdin, out, err);
        CommandLine cl = new CommandLine(root);
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            if (e instanceof UsageException) {
                err.println("usage error: " + e.getMessage());
            } else {
                err.println("error: " + e.getClass().getSimpleName());
            }
            return EXIT_USAGE;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        err.println("usage error: name a command: decode or verify (see --help)");
        return EXIT_USAGE;
    }

    /** Options shared by both commands. */
    static final class Common {
        @Parameters(index = "0", paramLabel = "FILE", description = "The document: a file, or - for standard input.")
        String input;

        @Option(
                names = "--format",
                paramLabel = "FORMAT",
                description = "Skip detection: dvid, id-mode, anon-mode, lsvid or zkp.")
        String format;

        @Option(names = "--json", description = "Print JSON instead of tables.")
        boolean json;

        @Option(
                names = "--artifacts",
                paramLabel = "FILE",
                description = "ID-Mode certificate side-car (PEM or JSON form).")
        Path artifacts;
    }

    @Command(
            name = "decode",
            mixinStandardHelpOptions = true,
            description = "Detects the format and shows each layer; verifies nothing.")
    static final class Decode implements Callable<Integer> {
        @CommandLine.ParentCommand
        Inspect parent;

        @Mixin
        Common common = new Common();

        @Override
        public Integer call() {
            Detector.Document doc = detect(common, parent.stdin);
            Report report = Display.decode(doc);
            parent.print(report, common.json);
            return report.document.containsKey("decodeError") ? EXIT_INVALID : EXIT_VALID;
        }
    }

    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = {
                "Detects the format, shows each layer and verifies the document with the core verifier.",
                "DVID: --key (PEM, JWK or JWKS), --asserting, --verifier; --idp-key for an embedded proof.",
                "ID-Mode: --bundle, --artifacts (or a {token, artifacts} input), --asserting, --verifier,"
                        + " --presenter.",
                "Anon-Mode: --subject, --verifier, --root-key.",
                "LSVID: --bundle, --presenter, --verifier, --asserting, --lsvid-issuer-key (version 1).",
                "Proof: --idp-key and --zkp-msg."
            })
    static final class Verify implements Callable<Integer> {
        @CommandLine.ParentCommand
        Inspect parent;

        @Mixin
        Common common = new Common();

        @Option(
                names = "--profile",
                paramLabel = "PROFILE",
                defaultValue = "strict",
                description = "strict (default) or original-compatible.")
        String profile;

        @Option(
                names = "--at",
                paramLabel = "TIME",
                description = "Verification time: ISO-8601 instant or epoch seconds (default: now).")
        String at;

        @Option(
                names = "--original-max-age",
                paramLabel = "DURATION",
                defaultValue = "PT300S",
                description = "Lifetime assumed for an original document without exp (ISO-8601 or seconds;"
                        + " default PT300S).")
        String originalMaxAge;

        @Option(
                names = "--skew",
                paramLabel = "DURATION",
                defaultValue = "PT30S",
                description = "Allowed clock skew (default PT30S).")
        String skew;

        @Option(names = "--verifier", paramLabel = "SPIFFE-ID", description = "The verifying workload.")
        String verifier;

        @Option(names = "--asserting", paramLabel = "SPIFFE-ID", description = "The pinned asserting workload.")
        String asserting;

        @Option(names = "--presenter", paramLabel = "CERT", description = "The mTLS peer's leaf certificate (PEM).")
        Path presenter;

        @Option(names = "--bundle", paramLabel = "CA", description = "Trust bundle: CA certificates (PEM); repeatable.")
        List<Path> bundles = new ArrayList<>();

        @Option(
                names = "--trust-domain",
                paramLabel = "NAME",
                description = "The bundle's trust domain (default: the CA's SPIFFE ID).")
        String trustDomain;

        @Option(
                names = {"--key", "--jwks"},
                paramLabel = "FILE",
                description = "DVID signing key: PEM public key or certificate (any kid), JWK or JWKS (by kid).")
        Path key;

        @Option(
                names = "--idp-key",
                paramLabel = "FILE",
                description = "The IdP's RSA key (PEM, JWK or JWKS) for a proof.")
        Path idpKey;

        @Option(names = "--idp-issuer", paramLabel = "URL", description = "The OAuth issuer of --idp-key.")
        String idpIssuer;

        @Option(
                names = "--root-key",
                paramLabel = "KEY",
                description = "Anon-Mode root issuer key, base64url as in the root iss.")
        String rootKey;

        @Option(
                names = "--subject",
                paramLabel = "SPIFFE-ID",
                description = "Anon-Mode subject workload (the root audience).")
        String subject;

        @Option(
                names = "--lsvid-issuer-key",
                paramLabel = "FILE",
                description = "Trusted LSVID version 1 issuer key (PEM or JWK); repeatable.")
        List<Path> lsvidIssuerKeys = new ArrayList<>();

        @Option(names = "--delegation", paramLabel = "RULE", description = "LSVID: required (default) or absent.")
        String delegation;

        @Option(names = "--zkp-msg", paramLabel = "FILE", description = "The OAuth header.payload a bare proof is for.")
        Path zkpMsg;

        @Override
        public Integer call() {
            VerifyOptions options = new VerifyOptions(
                    Verification.profile(profile),
                    at == null ? Instant.now() : instant(at),
                    duration(originalMaxAge, "--original-max-age"),
                    duration(skew, "--skew"),
                    spiffeId(verifier, "--verifier"),
                    spiffeId(asserting, "--asserting"),
                    presenter,
                    List.copyOf(bundles),
                    trustDomain,
                    key,
                    idpKey,
                    idpIssuer,
                    rootKey,
                    spiffeId(subject, "--subject"),
                    List.copyOf(lsvidIssuerKeys),
                    delegationRule(delegation),
                    zkpMsg);
            Detector.Document doc = detect(common, parent.stdin);
            Report report = Display.decode(doc);
            boolean valid = Verification.verify(doc, report, options);
            parent.print(report, common.json);
            return valid ? EXIT_VALID : EXIT_INVALID;
        }
    }

    private void print(Report report, boolean json) {
        if (json) {
            out.println(report.toJson());
        } else {
            report.printTables(out);
        }
        out.flush();
    }

    private static Detector.Document detect(Common common, InputStream stdin) {
        String text = Inputs.read(common.input, stdin);
        Detector.Document doc = Detector.detect(text, common.format == null ? null : Format.parse(common.format));
        if (common.artifacts != null) {
            if (doc.format() != Format.ID_MODE) {
                throw new UsageException("--artifacts belongs to ID-Mode tokens, not to "
                        + doc.format().id());
            }
            doc = new Detector.Document(doc.format(), doc.text(), Inputs.readFile(common.artifacts));
        }
        return doc;
    }

    static Instant instant(String text) {
        try {
            if (text.chars().allMatch(Character::isDigit)) {
                return Instant.ofEpochSecond(Long.parseLong(text));
            }
            return Instant.parse(text);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new UsageException("--at is neither an ISO-8601 instant nor epoch seconds: " + text);
        }
    }

    static Duration duration(String text, String option) {
        try {
            if (text.chars().allMatch(Character::isDigit)) {
                return Duration.ofSeconds(Long.parseLong(text));
            }
            String t = text.toUpperCase(Locale.ROOT);
            if (t.startsWith("P") && t.contains("D") && !t.contains("T")) {
                // java.time.Duration reads days only with a time part
                t = t + "T0S";
            }
            Duration d = Duration.parse(t);
            if (d.isNegative()) {
                throw new UsageException(option + " must not be negative");
            }
            return d;
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new UsageException(option + " is not a duration (ISO-8601 like PT300S or P60D, or seconds)");
        }
    }

    static SpiffeId spiffeId(String text, String option) {
        if (text == null) {
            return null;
        }
        try {
            return SpiffeId.parse(text);
        } catch (AssertionException e) {
            throw new UsageException(option + " is not a SPIFFE ID: " + text);
        }
    }

    static DelegationRule delegationRule(String text) {
        if (text == null) {
            return null;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "required" -> DelegationRule.REQUIRED;
            case "absent" -> DelegationRule.ABSENT;
            default -> throw new UsageException("--delegation is required or absent");
        };
    }
}
