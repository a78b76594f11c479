package io.spiffeidt.support.crypto;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The JCA provider of a workload ({@code spiffeidt.crypto.*}).
 *
 * @param provider which provider signs and verifies: {@code auto} (Amazon Corretto Crypto Provider
 *     when it loads, else BouncyCastle), {@code accp}, {@code bc} or {@code sun}
 */
@ConfigurationProperties("spiffeidt.crypto")
@Validated
public record CryptoProperties(@DefaultValue("auto") @NotNull CryptoProviderChoice provider) {}
