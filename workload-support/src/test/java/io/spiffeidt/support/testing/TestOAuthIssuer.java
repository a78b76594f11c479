package io.spiffeidt.support.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;

/**
 * A minimal OpenID provider on loopback HTTP: discovery and a JWKS with one RS256 key, and access
 * tokens for any user signed with it. What a workload's OAuth verification talks to in a module
 * test.
 */
public final class TestOAuthIssuer implements AutoCloseable {

    private final RSAKey key;
    private final HttpServer server;
    private final String issuer;

    /** Starts the provider on a random loopback port. */
    public TestOAuthIssuer() throws IOException {
        try {
            this.key = new RSAKeyGenerator(2048).keyID("test-idp-1").generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        this.issuer = "http://127.0.0.1:" + server.getAddress().getPort();
        serve(
                "/.well-known/openid-configuration",
                "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/jwks\"}");
        serve("/jwks", new JWKSet(key.toPublicJWK()).toString());
        server.start();
    }

    private void serve(String path, String json) {
        server.createContext(path, exchange -> {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    /** The issuer ({@code iss}), also the base URL of discovery. */
    public String issuer() {
        return issuer;
    }

    /** This issuer's signing key as a verifier resolves it from the JWKS (for introspection proofs). */
    public io.spiffeidt.core.zkp.IdpKeyResolver idpKeys() {
        try {
            return io.spiffeidt.core.zkp.IdpKeyResolver.of(
                    issuer, java.util.Map.of(key.getKeyID(), key.toRSAPublicKey()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An RFC 9068 access token ({@code typ} at+jwt, audience {@code spiffeidt}) of {@code user}, valid for five minutes. */
    public String token(String user) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .subject(user)
                .audience("spiffeidt")
                .issueTime(Date.from(now.minusSeconds(5)))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .build();
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .type(new com.nimbusds.jose.JOSEObjectType("at+jwt"))
                        .keyID(key.getKeyID())
                        .build(),
                claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
