package io.spiffeidt.idp.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;

/**
 * The test users {@code user0001} ... {@code userNNNN} (at least four digits, no other spelling),
 * all with the same password. Users are computed on lookup rather than stored, so the count costs
 * no memory and no start-up time.
 *
 * <p>Thread safety: immutable; each lookup returns a new {@link UserDetails}.
 */
public final class TestUsers implements UserDetailsService {

    private static final Pattern NAME = Pattern.compile("user([0-9]{4,7})");

    private final int count;

    private final String encodedPassword;

    /**
     * Creates the user set.
     *
     * @param count number of users, at least 1
     * @param encodedPassword the password in Spring Security's {@code {id}encoded} form
     */
    public TestUsers(int count, String encodedPassword) {
        if (count < 1) {
            throw new IllegalArgumentException("at least one test user");
        }
        this.count = count;
        this.encodedPassword = encodedPassword;
    }

    /**
     * The name of the n-th test user.
     *
     * @param n from 1
     * @return {@code user} followed by n with at least four digits, e.g. {@code user0001}
     */
    public static String username(int n) {
        return String.format(Locale.ROOT, "user%04d", n);
    }

    /**
     * The number of test users.
     *
     * @return the count
     */
    public int count() {
        return count;
    }

    /**
     * Looks a test user up by exact name.
     *
     * @param username the name, e.g. {@code user0042}
     * @return the user with the role {@code USER}
     * @throws UsernameNotFoundException when the name is not one of the test users
     */
    @Override
    public UserDetails loadUserByUsername(String username) {
        Matcher matcher = username == null ? null : NAME.matcher(username);
        if (matcher == null || !matcher.matches()) {
            throw new UsernameNotFoundException("unknown user");
        }
        int n = Integer.parseInt(matcher.group(1));
        if (n < 1 || n > count || !username(n).equals(username)) {
            throw new UsernameNotFoundException("unknown user");
        }
        return User.withUsername(username)
                .password(encodedPassword)
                .roles("USER")
                .build();
    }
}
