package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidHop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Under the {@code pooled} profile subject-wl and m-tier reuse their young LSVID, ID-Mode and
 * Anon-Mode extensions (issue 13): a session's requests carry the same extension, the next hop finds
 * it verified before, and the flow keeps working when the hops' SVIDs rotate (a reused extension is
 * dropped with the key that signed it, since the next hop's presenter check needs the new one).
 */
class ExtensionReuseIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.pooling.profile", "pooled"));
    }

    private static long reused(String mode, String workload) {
        var context = stack.context(workload);
        return switch (mode) {
            case "lsvid" -> context.getBean(LsvidHop.class).reusedExtensions();
            case "id-mode" -> context.getBean(IdModeHop.class).reusedExtensions();
            case "anon-mode" -> context.getBean(AnonModeHop.class).reusedExtensions();
            default -> throw new IllegalArgumentException(mode);
        };
    }

    /** How many times {@code workload} found a received token verified before (ID-Mode, Anon-Mode). */
    private static long found(String mode, String workload) {
        var context = stack.context(workload);
        return switch (mode) {
            case "id-mode" -> context.getBean(IdModeHop.class).verifier().rememberedTokenHits();
            case "anon-mode" -> context.getBean(AnonModeHop.class).verifier().rememberedTokenHits();
            default -> throw new IllegalArgumentException(mode);
        };
    }

    @ParameterizedTest
    @CsvSource({"lsvid, user0091", "id-mode, user0093", "anon-mode, user0094"})
    void balanceWhenCalledAgainThenSubjectAndMiddleTierReuseTheirExtensions(String mode, String user) {
        String token = client.userToken(user);
        assertThat(client.user(mode, "mint", token, null).status()).isEqualTo(200);
        long subjectBefore = reused(mode, "subject-wl");
        long middleBefore = reused(mode, "m-tier");

        for (int i = 0; i < 3; i++) {
            Answer balance = client.user(mode, "balance", token, null);
            assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        }

        // the first use signs, the two after it reuse, at both hops
        assertThat(reused(mode, "subject-wl") - subjectBefore).isEqualTo(2);
        assertThat(reused(mode, "m-tier") - middleBefore).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource({"id-mode, user0095", "anon-mode, user0096"})
    void balanceWhenCalledAgainThenMiddleTierAndTargetFindTheTokenVerified(String mode, String user) {
        String token = client.userToken(user);
        assertThat(client.user(mode, "mint", token, null).status()).isEqualTo(200);
        long middleBefore = found(mode, "m-tier");
        long targetBefore = found(mode, "target-wl");

        for (int i = 0; i < 3; i++) {
            Answer balance = client.user(mode, "balance", token, null);
            assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        }

        assertThat(found(mode, "m-tier") - middleBefore).isEqualTo(2);
        assertThat(found(mode, "target-wl") - targetBefore).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource({"lsvid, user0092", "id-mode, user0097", "anon-mode, user0098"})
    void flowWhenRunningWorkloadsRotateThenReusedExtensionsAreSignedAgain(String mode, String user) throws Exception {
        LsvidRotationIT.depositRotateAndUse(mode, user);
    }
}
