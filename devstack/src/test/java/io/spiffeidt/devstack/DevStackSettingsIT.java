package io.spiffeidt.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A launcher setting of the development IdP ({@code spiffeidt.idp.*}) reaches the IdP. */
class DevStackSettingsIT {

    @Test
    void startWhenIdpSettingGivenThenTheIdpUsesIt() throws Exception {
        // the IdP has user0001 .. user0100 by default; the setting gives it 150
        try (DevStack stack = DevStack.start(DevStackSettings.ephemeral().withProperty("spiffeidt.idp.users", "150"))) {
            HttpResponse<String> answer = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(stack.idpUrl() + "/dev/token"))
                                    .header("Content-Type", "application/x-www-form-urlencoded")
                                    .POST(HttpRequest.BodyPublishers.ofString("username=user0150&password=password"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.body()).contains("access_token");
        }
    }
}
