package io.spiffeidt.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LogbackEventMetricsTests {

    private final LoggerContext context = new LoggerContext();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final LogbackEventMetrics metrics = new LogbackEventMetrics(Tags.of("app", "x"), context);

    private final Logger logger = context.getLogger("io.spiffeidt.example");

    LogbackEventMetricsTests() {
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        metrics.bindTo(registry);
    }

    @AfterEach
    void close() {
        metrics.close();
        context.stop();
    }

    private double count(String level) {
        return registry.get("logback.events")
                .tags("level", level, "app", "x")
                .counter()
                .count();
    }

    @Test
    void countWhenEventsLoggedThenEachEnabledEventCountedOnceByLevel() {
        logger.error("e");
        logger.warn("w1");
        logger.warn("w2");
        logger.info("i");
        logger.debug("not enabled");
        logger.trace("not enabled");

        assertThat(count("error")).isEqualTo(1);
        assertThat(count("warn")).isEqualTo(2);
        assertThat(count("info")).isEqualTo(1);
        assertThat(count("debug")).isZero();
        assertThat(count("trace")).isZero();
    }

    @Test
    void countWhenLoggerLevelLoweredThenDebugCounted() {
        logger.setLevel(Level.DEBUG);

        logger.debug("d");

        assertThat(count("debug")).isEqualTo(1);
    }

    @Test
    void levelChecksWhenBoundThenNoTurboFilterAsked() {
        assertThat(context.getTurboFilterList()).isEmpty();
        assertThat(logger.isDebugEnabled()).isFalse();
        assertThat(count("debug")).isZero();
    }

    @Test
    void countWhenContextResetThenAppenderAttachedAgain() {
        context.reset();
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);

        logger.warn("after a reconfiguration");

        assertThat(count("warn")).isEqualTo(1);
    }

    @Test
    void countWhenClosedThenNothingCounted() {
        metrics.close();

        logger.error("after close");

        assertThat(count("error")).isZero();
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders())
                .toIterable()
                .isEmpty();
    }
}
