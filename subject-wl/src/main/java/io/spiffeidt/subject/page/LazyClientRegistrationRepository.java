package io.spiffeidt.subject.page;

import java.util.Iterator;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/**
 * The page's OpenID clients, resolved at first use instead of at start-up: a provider given by its
 * {@code issuer-uri} is asked for its metadata then, so subject-wl (and its JSON API) starts while
 * the IdP is still down, and the page works once the IdP is up. A failed resolution is tried again
 * at the next use. Thread safety: thread safe.
 */
final class LazyClientRegistrationRepository implements ClientRegistrationRepository, Iterable<ClientRegistration> {

    private final Supplier<Map<String, ClientRegistration>> resolver;
    private volatile Map<String, ClientRegistration> registrations;

    LazyClientRegistrationRepository(Supplier<Map<String, ClientRegistration>> resolver) {
        this.resolver = resolver;
    }

    private Map<String, ClientRegistration> registrations() {
        Map<String, ClientRegistration> known = registrations;
        if (known == null) {
            synchronized (this) {
                known = registrations;
                if (known == null) {
                    known = Map.copyOf(resolver.get());
                    registrations = known;
                }
            }
        }
        return known;
    }

    @Override
    public ClientRegistration findByRegistrationId(String registrationId) {
        return registrations().get(registrationId);
    }

    @Override
    public Iterator<ClientRegistration> iterator() {
        return registrations().values().iterator();
    }
}
