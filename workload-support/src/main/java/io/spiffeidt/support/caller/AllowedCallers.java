package io.spiffeidt.support.caller;

import io.spiffeidt.support.identity.Role;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The roles whose SPIFFE IDs may call a controller method (or every method of a controller class)
 * on the mTLS port. The mTLS peer's SPIFFE ID is compared, as a parsed ID, with the configured IDs
 * of these roles; any other caller gets 403 "Caller not allowed". A handler without this annotation
 * is refused (fail closed). A method annotation replaces the class annotation.
 *
 * <p>Thread safety: immutable.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface AllowedCallers {
    /** The roles allowed to call. */
    Role[] value();
}
