package io.spiffeidt.support.memo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;

class ThesisProfileTests {

    private static StandardEnvironment environment(String... profiles) {
        StandardEnvironment environment = new StandardEnvironment();
        ConfigDataEnvironmentPostProcessor.applyTo(
                environment, new DefaultResourceLoader(), new DefaultBootstrapContext(), profiles);
        return environment;
    }

    @Test
    void thesisProfileWhenActiveThenThesisPoolingAndNoMemo() {
        StandardEnvironment thesis = environment("thesis");

        assertThat(thesis.getProperty("spiffeidt.pooling.profile")).isEqualTo("thesis");
        assertThat(thesis.getProperty("spiffeidt.memo.enabled")).isEqualTo("false");
    }

    @Test
    void thesisProfileWhenNotActiveThenNothingSet() {
        StandardEnvironment plain = environment();

        assertThat(plain.getProperty("spiffeidt.memo.enabled")).isNull();
    }
}
