package io.spiffeidt.idp.api;

import io.spiffeidt.idp.token.DevTokenIssuer;
import io.spiffeidt.idp.token.DevTokenResponse;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /dev/token} with form fields {@code username} and {@code password}: a standard token
 * response for a test user, for scripts and load tests. Wrong credentials get 401 with an RFC 9457
 * problem (see {@link IdpProblemHandler}).
 */
@RestController
class DevTokenController {

    private final DevTokenIssuer issuer;

    DevTokenController(DevTokenIssuer issuer) {
        this.issuer = issuer;
    }

    @PostMapping(
            path = "/dev/token",
            consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<DevTokenResponse> token(@RequestParam String username, @RequestParam String password) {
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.PRAGMA, "no-cache")
                .body(issuer.issue(username, password));
    }
}
