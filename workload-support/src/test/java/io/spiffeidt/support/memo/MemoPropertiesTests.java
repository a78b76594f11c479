package io.spiffeidt.support.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.memo.MemoSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The wimse uses of the memo settings tree: the WIT issuer's key set reads {@code enabled} and
 * {@code ttl} as the other key sets do; the WPT replay cache reads only {@code size}, since a check
 * cannot be switched off or expire early.
 */
class MemoPropertiesTests {

    @Test
    void wimseKeysWhenUnsetThenFiveMinutesAndWhenSizedThenRefused() {
        assertThat(new MemoProperties(true, null).settings("wimse-keys").ttl()).isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() ->
                        new MemoProperties(true, Map.of("wimse-keys", new MemoProperties.Named(null, 10, null, null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spiffeidt.memo.uses.wimse-keys");
    }

    @Test
    void wimseJtiWhenSizedThenThatSizeAndWhenEnabledTtlOrCharactersSetThenRefused() {
        MemoProperties sized =
                new MemoProperties(true, Map.of("wimsejti", new MemoProperties.Named(null, 100, null, null)));

        assertThat(new MemoProperties(true, null).settings("wimse-jti").size()).isEqualTo(65_536);
        assertThat(sized.settings("wimse-jti").size()).isEqualTo(100);
        for (MemoProperties.Named named : new MemoProperties.Named[] {
            new MemoProperties.Named(false, null, null, null),
            new MemoProperties.Named(null, null, 10L, null),
            new MemoProperties.Named(null, null, null, Duration.ofSeconds(1))
        }) {
            assertThatThrownBy(() -> new MemoProperties(true, Map.of("wimse-jti", named)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("only size is read");
        }
        assertThat(new MemoProperties(false, null).settings("wimse-jti")).isEqualTo(MemoSettings.OFF);
    }
}
