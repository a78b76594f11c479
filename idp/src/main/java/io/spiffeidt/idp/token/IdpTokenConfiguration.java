package io.spiffeidt.idp.token;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import io.spiffeidt.idp.config.IdpProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

/**
 * The signing key (published at the JWKS endpoint), the JWT encoder and the token customizer.
 * Spring Authorization Server builds its token generator from these beans; {@link DevTokenIssuer}
 * uses the same ones, so both paths issue the same tokens.
 */
@Configuration(proxyBeanMethods = false)
class IdpTokenConfiguration {

    private static final Logger log = LoggerFactory.getLogger(IdpTokenConfiguration.class);

    @Bean
    JWKSource<SecurityContext> jwkSource(IdpProperties properties) {
        RSAKey key;
        if (properties.signingKey() == null) {
            key = SigningKeys.generate();
            log.info("IdP signing key generated (RS256, kid {})", key.getKeyID());
        } else {
            key = SigningKeys.load(properties.signingKey());
            log.info("IdP signing key read from {} (RS256, kid {})", properties.signingKey(), key.getKeyID());
        }
        return new ImmutableJWKSet<>(new JWKSet(key));
    }

    @Bean
    JwtEncoder jwtEncoder(JWKSource<SecurityContext> jwkSource) {
        return new NimbusJwtEncoder(jwkSource);
    }

    /**
     * The decoder of the IdP's own resource server ({@code /userinfo}): its access tokens are typed
     * {@code at+jwt} (RFC 9068), which nimbus' default type check refuses.
     */
    @Bean
    JwtDecoder jwtDecoder(JWKSource<SecurityContext> jwkSource) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(jwkSource).build();
        decoder.setJwtValidator(JwtValidators.createDefaultWithValidators(new JwtTypeValidator("at+jwt")));
        return decoder;
    }

    @Bean
    OAuth2TokenCustomizer<JwtEncodingContext> idpTokenCustomizer(IdpProperties properties) {
        return new IdpTokenCustomizer(properties.audience());
    }
}
