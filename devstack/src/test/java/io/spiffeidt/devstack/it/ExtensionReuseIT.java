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
 * Anon-Mode extensions: a session's requests carry the same extension, the next hop finds
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

    /**
     * How many times {@code workload}'s verifier found a received token verified before (ID-Mode,
     * Anon-Mode; LSVID's memos are counted in its own unit tests).
     */
    private static long found(String mode, String workload) {
        var context = stack.context(workload);
        return switch (mode) {
            case "id-mode" -> context.getBean(IdModeHop.class).verifier().rememberedTokenHits();
            case "anon-mode" -> context.getBean(AnonModeHop.class).verifier().rememberedTokenHits();
            default -> 0;
        };
    }

    @ParameterizedTest
    @CsvSource({"lsvid, user0091", "id-mode, user0093", "anon-mode, user0094"})
    void balanceWhenCalledAgainThenTheHopsReuseTheirExtensionsAndFindThemVerified(String mode, String user) {
        String token = client.userToken(user);
        assertThat(client.user(mode, "mint", token, null).status()).isEqualTo(200);
        long subjectBefore = reused(mode, "subject-wl");
        long middleBefore = reused(mode, "m-tier");
        long middleFoundBefore = found(mode, "m-tier");
        long targetFoundBefore = found(mode, "target-wl");

        for (int i = 0; i < 3; i++) {
            Answer balance = client.user(mode, "balance", token, null);
            assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        }

        // the first use signs, the two after it reuse, at both hops
        assertThat(reused(mode, "subject-wl") - subjectBefore).isEqualTo(2);
        assertThat(reused(mode, "m-tier") - middleBefore).isEqualTo(2);
        // and the hops after them find those two verified before
        long expectedFound = mode.equals("lsvid") ? 0 : 2;
        assertThat(found(mode, "m-tier") - middleFoundBefore).isEqualTo(expectedFound);
        assertThat(found(mode, "target-wl") - targetFoundBefore).isEqualTo(expectedFound);
    }

    @ParameterizedTest
    @CsvSource({"lsvid, user0092", "id-mode, user0097", "anon-mode, user0098"})
    void flowWhenRunningWorkloadsRotateThenReusedExtensionsAreSignedAgain(String mode, String user) throws Exception {
        LsvidRotationIT.depositRotateAndUse(mode, user);
    }
}
