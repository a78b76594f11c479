package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.support.lsvid.LsvidHop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Under the {@code pooled} profile subject-wl and m-tier reuse their young LSVID extensions (issue
 * 13): a session's requests carry the same extension, and the flow keeps working when the hops'
 * SVIDs rotate (a reused extension is dropped with the key that signed it, since the next hop's
 * presenter check needs the new one).
 */
class LsvidReuseIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.pooling.profile", "pooled"));
    }

    private static long reused(String workload) {
        return stack.context(workload).getBean(LsvidHop.class).reusedExtensions();
    }

    @Test
    void balanceWhenCalledAgainThenSubjectAndMiddleTierReuseTheirExtensions() {
        String token = client.userToken("user0091");
        assertThat(client.user("lsvid", "mint", token, null).status()).isEqualTo(200);
        long subjectBefore = reused("subject-wl");
        long middleBefore = reused("m-tier");

        for (int i = 0; i < 3; i++) {
            Answer balance = client.user("lsvid", "balance", token, null);
            assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        }

        // the first use signs, the two after it reuse, at both hops
        assertThat(reused("subject-wl") - subjectBefore).isEqualTo(2);
        assertThat(reused("m-tier") - middleBefore).isEqualTo(2);
    }

    @Test
    void flowWhenRunningWorkloadsRotateThenReusedExtensionsAreSignedAgain() throws Exception {
        LsvidRotationIT.depositRotateAndUse("user0092");
    }
}
