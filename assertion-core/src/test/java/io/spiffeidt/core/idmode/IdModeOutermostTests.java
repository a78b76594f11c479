package io.spiffeidt.core.idmode;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Reading only the outermost layer for an extension agrees with the full parse. */
class IdModeOutermostTests {

    private static final Instant NOW = IdModeWorld.NOW;
    private static final Limits LIMITS = Limits.defaults();

    @Test
    void outermostWhenThreeLayersThenSameDepthAndClaimsAsFullParse() {
        IdModePresentation two =
                IdModeWorld.extend(IdModeWorld.SUBJECT, IdModeWorld.mint(NOW), IdModeWorld.MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(IdModeWorld.MTIER, two, IdModeWorld.TARGET.spiffeId(), NOW);
        for (IdModePresentation p : new IdModePresentation[] {IdModeWorld.mint(NOW), two, three}) {
            IdModeToken full = IdModeToken.parse(p.token(), LIMITS);
            IdModeToken.Outermost outer = IdModeToken.outermost(p.token(), LIMITS);
            assertThat(outer.depth()).isEqualTo(full.depth());
            assertThat(outer.claims()).isEqualTo(full.claims(full.depth() - 1));
        }
    }

    @Test
    void outermostWhenStructureOrCharactersAreWrongThenMalformedLikeTheFullParse() {
        String token = IdModeWorld.mint(NOW).token();
        String[] bad = {
            token + ".",
            "." + token,
            token.replace(".", ".."),
            token + ".abc",
            token.replace('A', '+'),
            token.substring(0, 10) + "=" + token.substring(11),
            ""
        };
        for (String b : bad) {
            assertThatAssertion(() -> IdModeToken.outermost(b, LIMITS), "%s", b).hasCode(ErrorCode.MALFORMED);
            assertThatAssertion(() -> IdModeToken.parse(b, LIMITS), "%s", b).hasCode(ErrorCode.MALFORMED);
        }
    }
}
