package io.spiffeidt.support.metrics;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.logging.LogbackMetrics;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Micrometer's {@code logback.events} counter (one per level, the same name, tag and meaning) counted
 * by an appender on the root logger instead of Micrometer's turbo filter. Logback asks every turbo
 * filter on every level check ({@code isDebugEnabled()} included), not only on the events it writes:
 * the filter was 3–6 % of each workload's CPU at its highest load (docs/results/2026-11-27-capacity-embedded.md),
 * and in a JVM with several Spring contexts (the embedded stack) each context added one more filter to
 * every check of all of them. An appender runs once per event that is written, and only then.
 *
 * <p>What it counts: each event that reaches the root logger's appenders, that is every event
 * enabled by its logger's level (a logger with {@code additivity="false"} keeps its events from the
 * count; none of ours has one). Extends {@link LogbackMetrics} only so that Boot's auto-configured
 * binder backs off ({@code @ConditionalOnMissingBean}).
 *
 * <p>Thread safety: the counters are thread-safe; binding and closing are not meant to race.
 */
public class LogbackEventMetrics extends LogbackMetrics {

    static final String METER_NAME = "logback.events";

    private final LoggerContext context;

    private final Iterable<Tag> tags;

    private final List<CountingAppender> appenders = new CopyOnWriteArrayList<>();

    private final ReattachOnReset reattach = new ReattachOnReset();

    /**
     * Counts the events of the given logger context.
     *
     * @param tags extra tags of every counter
     * @param context the logger context whose root logger gets the counting appender
     */
    public LogbackEventMetrics(Iterable<Tag> tags, LoggerContext context) {
        super(tags, context);
        this.tags = tags;
        this.context = context;
        context.addListener(reattach);
    }

    /** Attaches one counting appender per registry to the root logger. */
    @Override
    public void bindTo(MeterRegistry registry) {
        CountingAppender appender = new CountingAppender(registry, tags);
        appender.setContext(context);
        appender.setName("spiffeidt-logback-events-" + appenders.size());
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        appenders.add(appender);
    }

    /** Detaches and stops the appenders this binder attached. */
    @Override
    public void close() {
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        for (CountingAppender appender : appenders) {
            root.detachAppender(appender);
            appender.stop();
        }
        appenders.clear();
        context.removeListener(reattach);
        super.close();
    }

    /**
     * A reset of the logger context (a reconfiguration) detaches and stops every appender; as
     * Micrometer does with its filter, the counting appenders are attached again.
     */
    private final class ReattachOnReset implements LoggerContextListener {

        @Override
        public boolean isResetResistant() {
            return true;
        }

        @Override
        public void onReset(LoggerContext resetContext) {
            Logger root = resetContext.getLogger(Logger.ROOT_LOGGER_NAME);
            for (CountingAppender appender : appenders) {
                appender.start();
                root.addAppender(appender);
            }
        }

        @Override
        public void onStart(LoggerContext startedContext) {
            // nothing to do
        }

        @Override
        public void onStop(LoggerContext stoppedContext) {
            // nothing to do
        }

        @Override
        public void onLevelChange(Logger logger, Level level) {
            // levels decide what reaches the appender; nothing to do
        }
    }

    /** Matches where logback is SLF4J's binding, as Boot's own logback metrics require. */
    static final class LogbackCondition implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return LoggerFactory.getILoggerFactory() instanceof LoggerContext;
        }
    }

    /** Counts each event by level; never blocks (no lock around {@link #append}). */
    static final class CountingAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

        private final Counter error;

        private final Counter warn;

        private final Counter info;

        private final Counter debug;

        private final Counter trace;

        CountingAppender(MeterRegistry registry, Iterable<Tag> tags) {
            this.error = counter(registry, tags, "error");
            this.warn = counter(registry, tags, "warn");
            this.info = counter(registry, tags, "info");
            this.debug = counter(registry, tags, "debug");
            this.trace = counter(registry, tags, "trace");
        }

        private static Counter counter(MeterRegistry registry, Iterable<Tag> tags, String level) {
            return Counter.builder(METER_NAME)
                    .tags(tags)
                    .tag("level", level)
                    .description("Number of log events that were enabled by the effective log level")
                    .baseUnit("events")
                    .register(registry);
        }

        @Override
        protected void append(ILoggingEvent event) {
            switch (event.getLevel().toInt()) {
                case Level.ERROR_INT -> error.increment();
                case Level.WARN_INT -> warn.increment();
                case Level.INFO_INT -> info.increment();
                case Level.DEBUG_INT -> debug.increment();
                case Level.TRACE_INT -> trace.increment();
                default -> {
                    // ALL and OFF are thresholds, never an event's level
                }
            }
        }
    }
}
