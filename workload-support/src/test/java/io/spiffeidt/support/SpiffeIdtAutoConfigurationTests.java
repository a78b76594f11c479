package io.spiffeidt.support;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.logging.LogbackMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.anonmode.AnonModeAutoConfiguration;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.CallerAuthorization;
import io.spiffeidt.support.caller.CallerAutoConfiguration;
import io.spiffeidt.support.client.ClientAutoConfiguration;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.dvid.DvidAutoConfiguration;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.identity.IdentityAutoConfiguration;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadApiX509SourceFactory;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.identity.X509SourceFactory;
import io.spiffeidt.support.idmode.IdModeAutoConfiguration;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidAutoConfiguration;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.metrics.LogbackEventMetrics;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.problem.ProblemDetailsAdvice;
import io.spiffeidt.support.problem.ProblemDetailsAutoConfiguration;
import io.spiffeidt.support.server.ServerAutoConfiguration;
import io.spiffeidt.support.testing.TestIdentities;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.client.RestClient;

class SpiffeIdtAutoConfigurationTests {

    /** Ours as registered, plus the Boot auto-configurations they rely on. */
    static final AutoConfigurations ALL = AutoConfigurations.of(Stream.concat(
                    ImportCandidates.load(
                                    AutoConfiguration.class, SpiffeIdtAutoConfigurationTests.class.getClassLoader())
                            .getCandidates()
                            .stream()
                            .filter(name -> name.startsWith("io.spiffeidt.support."))
                            .map(SpiffeIdtAutoConfigurationTests::load),
                    Stream.of(
                            MetricsAutoConfiguration.class,
                            CompositeMeterRegistryAutoConfiguration.class,
                            SimpleMetricsExportAutoConfiguration.class,
                            RestClientAutoConfiguration.class))
            .toArray(Class<?>[]::new));

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(ALL)
            .withBean(X509Source.class, () -> TestIdentities.source(Role.M_TIER))
            .withPropertyValues("spiffeidt.workload=m-tier");

    @Test
    void verifyWhenRegisteredThenListedInAutoConfigurationImports() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                        .getCandidates())
                .contains(
                        SpiffeIdtAutoConfiguration.class.getName(),
                        IdentityAutoConfiguration.class.getName(),
                        CryptoAutoConfiguration.class.getName(),
                        OperationMetricsAutoConfiguration.class.getName(),
                        OAuthAutoConfiguration.class.getName(),
                        ClientAutoConfiguration.class.getName(),
                        CallerAutoConfiguration.class.getName(),
                        ProblemDetailsAutoConfiguration.class.getName(),
                        ServerAutoConfiguration.class.getName(),
                        DvidAutoConfiguration.class.getName(),
                        IdModeAutoConfiguration.class.getName(),
                        AnonModeAutoConfiguration.class.getName(),
                        LsvidAutoConfiguration.class.getName());
    }

    @Test
    void verifyWhenContextStartsThenEveryBeanPresent() {
        runner.withPropertyValues(
                        "spiffeidt.verification.skew=7s", "spiffeidt.verification.profile=original-compatible")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(Clock.class);
                    assertThat(context.getBean(Limits.class)).isEqualTo(Limits.defaults());
                    assertThat(context.getBean(TimeRules.class).skew()).isEqualTo(Duration.ofSeconds(7));
                    assertThat(context.getBean(VerificationProfile.class))
                            .isEqualTo(VerificationProfile.ORIGINAL_COMPATIBLE);
                    assertThat(context.getBean(X509SourceFactory.class))
                            .isInstanceOf(WorkloadApiX509SourceFactory.class);
                    assertThat(context.getBean(WorkloadIdentity.class).self().toString())
                            .isEqualTo("spiffe://example.org/m-tier");
                    assertThat(context).hasSingleBean(SignatureProvider.class);
                    assertThat(context).hasSingleBean(OperationMetrics.class);
                    assertThat(context).hasSingleBean(OAuthTokenVerifier.class);
                    assertThat(context).hasSingleBean(DownstreamClients.class);
                    assertThat(context).hasSingleBean(LsvidHop.class);
                    assertThat(context).hasSingleBean(DvidHop.class);
                    assertThat(context).hasSingleBean(AnonModeHop.class);
                    assertThat(context.getBean(IdModeHop.class)
                                    .verifier()
                                    .settings()
                                    .assertingWorkload())
                            .hasToString("spiffe://example.org/asserting-wl");
                    assertThat(context).doesNotHaveBean(ProblemDetailsAdvice.class);
                });
    }

    @Test
    void verifyWhenApplicationDefinesBeansThenAutoConfigurationBacksOff() {
        Clock fixed = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);
        runner.withBean(Clock.class, () -> fixed)
                .withBean(SignatureProvider.class, () -> new SignatureProvider(CryptoProviderChoice.SUN))
                .run(context -> {
                    assertThat(context.getBean(Clock.class)).isSameAs(fixed);
                    assertThat(context.getBean(TimeRules.class).now()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
                    assertThat(context.getBean(SignatureProvider.class).name()).isEqualTo("sun");
                });
    }

    @Test
    void verifyWhenLsvidV1IssuerKeysConfiguredThenTheHopVerifierTrustsExactlyThem(@TempDir Path dir) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        PublicKey key = generator.generateKeyPair().getPublic();
        Path pem = Files.writeString(
                dir.resolve("spire-lsvid.pem"),
                "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder().encodeToString(key.getEncoded())
                        + "\n-----END PUBLIC KEY-----\n");
        runner.withPropertyValues(
                        "spiffeidt.verification.profile=original-compatible",
                        "spiffeidt.verification.lsvid-v1-issuer-keys[0]=" + pem)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(LsvidHop.class)
                                    .verifier()
                                    .settings()
                                    .trustedV1IssuerKeys())
                            .extracting(PublicKey::getEncoded)
                            .containsExactly(key.getEncoded());
                });
        runner.run(context -> assertThat(
                        context.getBean(LsvidHop.class).verifier().settings().trustedV1IssuerKeys())
                .isEmpty());
    }

    @Test
    void verifyWhenLsvidV1IssuerKeyFileUnusableThenStartupFails(@TempDir Path dir) throws Exception {
        Path notAKey = Files.writeString(dir.resolve("not-a-key.pem"), "hello");
        runner.withPropertyValues("spiffeidt.verification.lsvid-v1-issuer-keys[0]=" + notAKey)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("lsvid-v1-issuer-keys[0]")
                        .hasMessageContaining("no PEM PUBLIC KEY block"));
    }

    @Test
    void verifiedProofsWhenMemosOffOrProofMemoOffThenEmptyElseRemembers() {
        runner.withPropertyValues("spiffeidt.memo.enabled=false")
                .run(context -> assertThat(context.getBean(io.spiffeidt.core.zkp.VerifiedProofs.class)
                                .remembers())
                        .isFalse());
        runner.withPropertyValues("spiffeidt.memo.uses.oauth-proof.enabled=false")
                .run(context -> assertThat(context.getBean(io.spiffeidt.core.zkp.VerifiedProofs.class)
                                .remembers())
                        .isFalse());
        runner.withPropertyValues("spiffeidt.pooling.profile=thesis")
                .run(context -> assertThat(context.getBean(io.spiffeidt.core.zkp.VerifiedProofs.class)
                                .remembers())
                        .as("the pooling profile says nothing about memos")
                        .isTrue());
    }

    @Test
    void memosWhenConfiguredThenEachNameHasItsSettingsAndDefaults() {
        runner.withPropertyValues(
                        "spiffeidt.memo.uses.oauth-proof.size=123",
                        "spiffeidt.memo.uses.lsvid-chain.ttl=30s",
                        "spiffeidt.memo.uses.idmode-token.max-chars=99")
                .run(context -> {
                    Memos memos = context.getBean(Memos.class);
                    assertThat(memos.settings("oauth-proof"))
                            .isEqualTo(
                                    new MemoSettings(true, 123, MemoSettings.DEFAULT_MAX_CHARS, Duration.ofMinutes(5)));
                    assertThat(memos.settings("lsvid-chain").ttl()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(memos.settings("idmode-token").maxChars()).isEqualTo(99);
                    assertThat(memos.settings("oauth-token"))
                            .isEqualTo(new MemoSettings(
                                    true, 4096, MemoSettings.DEFAULT_MAX_CHARS, Duration.ofMinutes(1)));
                    assertThat(memos.settings("anonmode-extension").size()).isEqualTo(256);
                    assertThat(memos.settings("subject-session")).isEqualTo(MemoSettings.DEFAULTS);
                });
        runner.withPropertyValues("spiffeidt.memo.enabled=false", "spiffeidt.memo.uses.oauth-proof.enabled=true")
                .run(context -> assertThat(context.getBean(Memos.class).settings("oauth-proof"))
                        .isEqualTo(MemoSettings.OFF));
        runner.withPropertyValues("spiffeidt.memo.uses.lsvid-base.size=-1")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void memosWhenNameSpelledAsAnEnvironmentVariableGivesItThenTheMemoOfThatName() {
        // SPIFFEIDT_MEMO_USES_OAUTHPROOF_SIZE binds the map key "oauthproof"
        runner.withPropertyValues("spiffeidt.memo.uses.oauthproof.size=7").run(context -> assertThat(
                        context.getBean(Memos.class).settings("oauth-proof").size())
                .isEqualTo(7));
    }

    @Test
    void memosWhenUnknownNameOrAKeyTheMemoDoesNotReadThenTheStartFails() {
        runner.withPropertyValues("spiffeidt.memo.uses.lsvid-chains.ttl=30s").run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("spiffeidt.memo.uses.lsvid-chains: no memo of that name"));
        runner.withPropertyValues("spiffeidt.memo.uses.dvid-keys.size=10").run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("spiffeidt.memo.uses.dvid-keys: only enabled and ttl are read"));
        runner.withPropertyValues("spiffeidt.memo.uses.subject-session.ttl=1m").run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("spiffeidt.memo.uses.subject-session: only enabled is read"));
        runner.withPropertyValues(
                        "spiffeidt.memo.uses.txn-token-keys.ttl=1m",
                        "spiffeidt.memo.uses.subject-session.enabled=false")
                .run(context -> {
                    Memos memos = context.getBean(Memos.class);
                    assertThat(memos.settings("txn-token-keys").ttl()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(memos.settings("subject-session").enabled()).isFalse();
                });
    }

    @Test
    void memoMetricWhenMemosUsedThenCountedByNameAndResultWithASizeGauge() {
        runner.run(context -> {
            io.micrometer.core.instrument.MeterRegistry registry =
                    context.getBean(io.micrometer.core.instrument.MeterRegistry.class);
            Memo<String, String> memo = context.getBean(Memos.class).memo("lsvid-chain", Expiry.ttl());
            memo.put("k", "v");
            memo.get("k");
            memo.get("other");

            assertThat(registry.get("spiffeidt.memo")
                            .tags("name", "lsvid-chain", "result", "hit")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
            assertThat(registry.get("spiffeidt.memo")
                            .tags("name", "lsvid-chain", "result", "miss")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
            assertThat(registry.get("spiffeidt.memo.size")
                            .tags("name", "lsvid-chain")
                            .gauge()
                            .value())
                    .isEqualTo(1.0);
        });
    }

    @Test
    void hopsWhenMemosOffThenSignEveryExtensionElseReuseYoungOnes() {
        runner.withPropertyValues("spiffeidt.memo.enabled=false").run(context -> {
            assertThat(context.getBean(LsvidHop.class).reusesExtensions()).isFalse();
            assertThat(context.getBean(IdModeHop.class).reusesExtensions()).isFalse();
            assertThat(context.getBean(AnonModeHop.class).reusesExtensions()).isFalse();
            assertThat(context.getBean(DvidHop.class).verifiesLocally()).isFalse();
            assertThat(context.getBean(DvidHop.class).introspectsInOneCall()).isFalse();
        });
        runner.withPropertyValues(
                        "spiffeidt.pooling.profile=thesis", "spiffeidt.memo.uses.lsvid-extension.enabled=false")
                .run(context -> {
                    assertThat(context.getBean(LsvidHop.class).reusesExtensions())
                            .isFalse();
                    assertThat(context.getBean(IdModeHop.class).reusesExtensions())
                            .isTrue();
                    assertThat(context.getBean(AnonModeHop.class).reusesExtensions())
                            .isTrue();
                    assertThat(context.getBean(DvidHop.class).verifiesLocally()).isTrue();
                    assertThat(context.getBean(DvidHop.class).introspectsInOneCall())
                            .isTrue();
                });
    }

    @Test
    void oauthTokenVerifierWhenMemosOffOrDisabledOrKeysNotCachedThenRemembersNothingElseRemembers() {
        runner.withPropertyValues("spiffeidt.memo.enabled=false").run(context -> assertThat(
                        context.getBean(OAuthTokenVerifier.class).remembersTokens())
                .isFalse());
        runner.withPropertyValues("spiffeidt.memo.uses.oauth-token.enabled=false")
                .run(context -> assertThat(
                                context.getBean(OAuthTokenVerifier.class).remembersTokens())
                        .isFalse());
        runner.withPropertyValues("spiffeidt.oauth.jwks-cache=none").run(context -> assertThat(
                        context.getBean(OAuthTokenVerifier.class).remembersTokens())
                .isFalse());
        runner.run(
                context -> assertThat(context.getBean(OAuthTokenVerifier.class).remembersTokens())
                        .isTrue());
        runner.withPropertyValues("spiffeidt.memo.uses.oauth-token.size=-1")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void verifyWhenCryptoProviderConfiguredThenUsed() {
        runner.withPropertyValues("spiffeidt.crypto.provider=bc").run(context -> assertThat(
                        context.getBean(SignatureProvider.class).name())
                .isEqualTo("bc"));
    }

    @Test
    void verifyWhenPropertiesInvalidThenStartupFails() {
        runner.withPropertyValues("spiffeidt.pooling.max-connections=0")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("spiffeidt.trust-domain= ")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void verifyWhenNoWorkloadApiThenStartupFailsWithinInitTimeout() {
        new ApplicationContextRunner()
                .withConfiguration(ALL)
                .withPropertyValues(
                        "spiffeidt.workload=m-tier",
                        "spiffeidt.workload-api.socket=unix:/nonexistent/spiffeidt-test.sock",
                        "spiffeidt.workload-api.init-timeout=1s")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void verifyWhenMeterFiltersAppliedThenCommonTagsHistogramsAndPoolingTag() {
        runner.withPropertyValues("spiffeidt.crypto.provider=bc").run(context -> {
            MeterRegistry registry = new SimpleMeterRegistry();
            context.getBeansOfType(MeterFilter.class).values().forEach(f -> registry.config()
                    .meterFilter(f));

            Timer client =
                    Timer.builder("http.client.requests").tag("uri", "/x").register(registry);
            Timer operation = Timer.builder(OperationMetrics.OPERATION_TIMER).register(registry);

            assertThat(client.getId().getTag("pooling")).isEqualTo("none");
            assertThat(client.getId().getTag("workload")).isEqualTo("m-tier");
            assertThat(operation.getId().getTag("crypto.provider")).isEqualTo("bc");
            MeterFilter histograms = context.getBean("spiffeIdtHistograms", MeterFilter.class);
            DistributionStatisticConfig config =
                    histograms.configure(operation.getId(), DistributionStatisticConfig.NONE);
            // fixed buckets (HistogramBucketsTests), no client-side percentiles
            assertThat(config.getServiceLevelObjectiveBoundaries()).hasSize(18);
            assertThat(config.getPercentiles()).isEmpty();
            assertThat(histograms
                            .configure(
                                    Timer.builder("jvm.gc.pause")
                                            .register(registry)
                                            .getId(),
                                    DistributionStatisticConfig.NONE)
                            .isPercentileHistogram())
                    .isNull();
        });
    }

    @Test
    void verifyWhenServletApplicationThenAdviceAuthorizationAndMtlsCustomizer() {
        new WebApplicationContextRunner()
                .withConfiguration(ALL)
                .withBean(X509Source.class, () -> TestIdentities.source(Role.TARGET_WL))
                .withPropertyValues("spiffeidt.workload=target-wl")
                .run(context -> {
                    assertThat(context).hasSingleBean(ProblemDetailsAdvice.class);
                    assertThat(context).hasSingleBean(CallerAuthorization.class);
                    assertThat(context).hasBean("spiffeMtlsServerCustomizer");
                });
    }

    @Test
    void verifyWhenMtlsDisabledThenNoMtlsCustomizer() {
        new WebApplicationContextRunner()
                .withConfiguration(ALL)
                .withBean(X509Source.class, () -> TestIdentities.source(Role.SUBJECT_WL))
                .withPropertyValues("spiffeidt.workload=subject-wl", "spiffeidt.server.mtls=false")
                .run(context -> {
                    assertThat(context).hasSingleBean(ProblemDetailsAdvice.class);
                    assertThat(context).doesNotHaveBean("spiffeMtlsServerCustomizer");
                });
    }

    @Test
    void verifyWhenNoMeterRegistryThenStartupFails() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        SpiffeIdtAutoConfiguration.class,
                        CryptoAutoConfiguration.class,
                        OperationMetricsAutoConfiguration.class))
                .withPropertyValues("spiffeidt.workload=m-tier")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(NoSuchBeanDefinitionException.class)
                        .hasMessageContaining(MeterRegistry.class.getName()));
    }

    @Test
    void verifyWhenNoRestClientBuilderThenStartupFails() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        SpiffeIdtAutoConfiguration.class,
                        IdentityAutoConfiguration.class,
                        CryptoAutoConfiguration.class,
                        OperationMetricsAutoConfiguration.class,
                        ClientAutoConfiguration.class))
                .withBean(X509Source.class, () -> TestIdentities.source(Role.M_TIER))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("spiffeidt.workload=m-tier")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(NoSuchBeanDefinitionException.class)
                        .hasMessageContaining(RestClient.Builder.class.getName()));
    }

    @Test
    void verifyWhenBootMetricsPresentThenOperationsRecordIntoItsRegistry() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            context.getBean(OperationMetrics.class).run(io.spiffeidt.core.Mode.LSVID, Operation.VALIDATE, () -> {});
            assertThat(context.getBean(MeterRegistry.class)
                            .get(OperationMetrics.OPERATION_TIMER)
                            .tags("mode", "lsvid", "operation", "validate")
                            .timer()
                            .count())
                    .isEqualTo(1);
        });
    }

    @Test
    void logbackEventsWhenBootsBinderConfiguredThenCountedByAnAppenderAndNoTurboFilter() {
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        runner.withConfiguration(AutoConfigurations.of(LogbackMetricsAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).getBean(LogbackMetrics.class).isInstanceOf(LogbackEventMetrics.class);
                    assertThat(logging.getTurboFilterList())
                            .as("logback's turbo filters, asked on every level check")
                            .isEmpty();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    double before = registry.get("logback.events")
                            .tags("level", "warn")
                            .counter()
                            .count();
                    LoggerFactory.getLogger(SpiffeIdtAutoConfigurationTests.class)
                            .warn("one warning for logback.events");
                    assertThat(registry.get("logback.events")
                                    .tags("level", "warn")
                                    .counter()
                                    .count())
                            .isEqualTo(before + 1);
                });
    }

    @Test
    void verifyWhenAnonModeIidAskedUnderStrictProfileThenStartupFails() {
        runner.withPropertyValues("spiffeidt.anon-mode.include-iid=true").run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("spiffeidt.anon-mode.include-iid"));
        runner.withPropertyValues(
                        "spiffeidt.anon-mode.include-iid=true", "spiffeidt.verification.profile=original-compatible")
                .run(context -> assertThat(
                                context.getBean(AnonModeHop.class).settings().includeIid())
                        .isTrue());
    }
}
