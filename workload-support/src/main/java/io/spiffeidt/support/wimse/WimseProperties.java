package io.spiffeidt.support.wimse;

import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * WIMSE settings of a workload ({@code spiffeidt.wimse.*}; docs/formats/wimse.md "Who issues WITs").
 *
 * @param baseUri the URI this workload is reached at, as its callers write it (e.g. {@code
 *     https://m-tier:8443}): a WPT's {@code aud} must be it followed by the request path
 *     (draft-ietf-wimse-wpt-02 §3.1.7: never taken from {@code Host}); unset: this workload's own
 *     {@code spiffeidt.endpoints.<workload>} when set, else the address and port the connection
 *     arrived at
 */
@ConfigurationProperties("spiffeidt.wimse")
public record WimseProperties(URI baseUri) {}
