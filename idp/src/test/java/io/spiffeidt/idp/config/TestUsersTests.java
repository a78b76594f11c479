package io.spiffeidt.idp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UsernameNotFoundException;

class TestUsersTests {

    private final TestUsers users = new TestUsers(100, "{noop}password");

    @Test
    void verifyWhenUsernameFormattedThenFourDigitsAtLeast() {
        assertThat(TestUsers.username(1)).isEqualTo("user0001");
        assertThat(TestUsers.username(100)).isEqualTo("user0100");
        assertThat(TestUsers.username(12345)).isEqualTo("user12345");
    }

    @ParameterizedTest
    @ValueSource(strings = {"user0001", "user0042", "user0100"})
    void verifyWhenUserInRangeThenFoundWithTheEncodedPassword(String name) {
        UserDetails user = users.loadUserByUsername(name);

        assertThat(user.getUsername()).isEqualTo(name);
        assertThat(user.getPassword()).isEqualTo("{noop}password");
        assertThat(user.getAuthorities()).extracting(Object::toString).containsExactly("ROLE_USER");
        assertThat(user.isEnabled()).isTrue();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(
            strings = {
                "user0000",
                "user0101",
                "user01",
                "user00001",
                "USER0001",
                " user0001",
                "user0001 ",
                "user-001",
                "user\u0660\u0660\u0660\u0661",
                "admin",
                ""
            })
    void verifyWhenNameIsNotATestUserThenNotFound(String name) {
        assertThatThrownBy(() -> users.loadUserByUsername(name)).isInstanceOf(UsernameNotFoundException.class);
    }

    @Test
    void verifyWhenCountAboveNineThousandNineHundredNinetyNineThenNamesWiden() {
        TestUsers many = new TestUsers(10_000, "{noop}password");

        assertThat(many.loadUserByUsername("user10000").getUsername()).isEqualTo("user10000");
        assertThat(many.loadUserByUsername("user9999").getUsername()).isEqualTo("user9999");
        assertThatThrownBy(() -> many.loadUserByUsername("user010000")).isInstanceOf(UsernameNotFoundException.class);
        assertThatThrownBy(() -> many.loadUserByUsername("user10001")).isInstanceOf(UsernameNotFoundException.class);
    }

    @Test
    void verifyWhenLookedUpTwiceThenIndependentObjects() {
        assertThat(users.loadUserByUsername("user0001")).isNotSameAs(users.loadUserByUsername("user0001"));
    }

    @Test
    void verifyWhenCountBelowOneThenRejected() {
        assertThatThrownBy(() -> new TestUsers(0, "{noop}password")).isInstanceOf(IllegalArgumentException.class);
    }
}
