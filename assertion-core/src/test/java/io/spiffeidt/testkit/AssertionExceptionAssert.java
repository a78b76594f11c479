package io.spiffeidt.testkit;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.util.Collection;
import java.util.OptionalInt;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ObjectAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * AssertJ assertions on {@link AssertionException}: the entry point {@link #assertThatAssertion}
 * runs the code, fails when it returns normally or throws anything else, and then checks the error
 * code and layer.
 *
 * <pre>{@code
 * assertThatAssertion(() -> verifier.verify(token, peer)).hasCode(ErrorCode.BAD_SIGNATURE);
 * }</pre>
 */
public final class AssertionExceptionAssert
        extends AbstractThrowableAssert<AssertionExceptionAssert, AssertionException> {

    private AssertionExceptionAssert(AssertionException actual) {
        super(actual, AssertionExceptionAssert.class);
    }

    /**
     * Runs {@code call}; the assertion fails unless it throws an {@link AssertionException} (a
     * normal return, or any other exception, is a failure that names what happened instead).
     */
    public static AssertionExceptionAssert assertThatAssertion(ThrowingCallable call) {
        return assertThatAssertion(call, "");
    }

    /**
     * As {@link #assertThatAssertion(ThrowingCallable)}, with a description (a {@link
     * String#format} pattern) that also names the case when the code returns normally.
     */
    public static AssertionExceptionAssert assertThatAssertion(
            ThrowingCallable call, String description, Object... args) {
        String what = description.isEmpty() ? "" : "[" + String.format(description, args) + "] ";
        Throwable thrown = Assertions.catchThrowable(call);
        if (thrown == null) {
            throw new AssertionError(what + "Expecting code to throw an AssertionException, but it returned normally");
        }
        if (!(thrown instanceof AssertionException e)) {
            throw new AssertionError(
                    what + "Expecting code to throw an AssertionException, but it threw " + thrown, thrown);
        }
        AssertionExceptionAssert result = new AssertionExceptionAssert(e);
        return description.isEmpty() ? result : result.as(description, args);
    }

    /** Assertions on an exception a test already holds (fails when it is not an AssertionException). */
    public static AssertionExceptionAssert assertThatAssertion(Throwable thrown) {
        Assertions.assertThat(thrown).isInstanceOf(AssertionException.class);
        return new AssertionExceptionAssert((AssertionException) thrown);
    }

    /** The error code is {@code expected}. */
    public AssertionExceptionAssert hasCode(ErrorCode expected) {
        isNotNull();
        if (actual.code() != expected) {
            failWithMessage(
                    "Expecting error code <%s> but was <%s> (message: %s)",
                    expected, actual.code(), actual.getMessage());
        }
        return this;
    }

    /** The error code is one of {@code expected}. */
    public AssertionExceptionAssert hasCodeIn(Collection<ErrorCode> expected) {
        return hasCodeIn(expected.toArray(ErrorCode[]::new));
    }

    /** The error code is one of {@code expected}. */
    public AssertionExceptionAssert hasCodeIn(ErrorCode... expected) {
        isNotNull();
        for (ErrorCode code : expected) {
            if (actual.code() == code) {
                return this;
            }
        }
        failWithMessage(
                "Expecting error code in <%s> but was <%s> (message: %s)",
                java.util.Arrays.toString(expected), actual.code(), actual.getMessage());
        return this;
    }

    /** The failure names layer {@code expected} (0 = root / innermost). */
    public AssertionExceptionAssert hasLayer(int expected) {
        isNotNull();
        OptionalInt layer = actual.layer();
        if (layer.isEmpty() || layer.getAsInt() != expected) {
            failWithMessage("Expecting layer <%s> but was <%s>", expected, layer);
        }
        return this;
    }

    /** An assertion on the error code itself, for anything {@link #hasCode} does not cover. */
    public ObjectAssert<ErrorCode> code() {
        isNotNull();
        return Assertions.assertThatObject(actual.code());
    }
}
