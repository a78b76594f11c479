package io.spiffeidt.support.caller;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.cert.X509Certificate;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Per-endpoint SPIFFE ID authorization on the mTLS port: a {@link HandlerInterceptor} enforcing
 * {@link AllowedCallers} (fail closed: a controller method without it is refused), and the {@link
 * HandlerMethodArgumentResolver} for {@link Caller} parameters.
 *
 * <p>Thread safety: thread safe (immutable).
 */
public class CallerAuthorization implements HandlerInterceptor, HandlerMethodArgumentResolver {

    /** The servlet request attribute holding the peer's certificate chain. */
    public static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";

    private static final Logger log = LoggerFactory.getLogger(CallerAuthorization.class);

    private final IdentityProperties properties;
    private final boolean enforce;

    /**
     * @param properties the configured IDs of the roles
     * @param enforce whether the interceptor checks {@link AllowedCallers} (true on the mTLS port)
     */
    public CallerAuthorization(IdentityProperties properties, boolean enforce) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.enforce = enforce;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!enforce || request.getDispatcherType() == DispatcherType.ERROR) {
            return true;
        }
        if (!(handler instanceof HandlerMethod method)) {
            // static resources / unknown paths: no controller runs; they end in 404
            return true;
        }
        AllowedCallers allowed = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), AllowedCallers.class);
        if (allowed == null) {
            allowed = AnnotatedElementUtils.findMergedAnnotation(method.getBeanType(), AllowedCallers.class);
        }
        Caller caller = caller(request);
        if (allowed == null) {
            log.warn("refused {}: endpoint {} declares no allowed callers", caller.id(), request.getRequestURI());
            throw new CallerNotAllowedException("endpoint declares no allowed callers");
        }
        for (Role role : allowed.value()) {
            if (properties.idOf(role).equals(caller.id())) {
                return true;
            }
        }
        if (caller.id().equals(properties.idOf(properties.workload()))) {
            // the workload's own start-up warm-up (spiffeidt.warm-up), refused by design at every endpoint
            log.debug("refused {} (itself) on {}", caller.id(), request.getRequestURI());
        } else {
            log.info("refused {} on {}", caller.id(), request.getRequestURI());
        }
        throw new CallerNotAllowedException(caller.id() + " may not call this endpoint");
    }

    /**
     * The authenticated peer of a request.
     *
     * @throws CallerNotAllowedException when the request carries no client SVID
     */
    public static Caller caller(HttpServletRequest request) {
        Object attribute = request.getAttribute(CERTIFICATE_ATTRIBUTE);
        if (!(attribute instanceof X509Certificate[] chain) || chain.length == 0) {
            throw new CallerNotAllowedException("no client certificate");
        }
        X509Certificate leaf = chain[0];
        SpiffeId id;
        try {
            id = SpiffeId.fromX509Svid(leaf);
        } catch (AssertionException e) {
            throw new CallerNotAllowedException("client certificate without a SPIFFE ID");
        }
        return new Caller(id, leaf, leaf.getPublicKey());
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return Caller.class.equals(parameter.getParameterType());
    }

    @Override
    public Object resolveArgument(
            MethodParameter parameter,
            ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest,
            WebDataBinderFactory binderFactory) {
        HttpServletRequest request = webRequest.getNativeRequest(HttpServletRequest.class);
        if (request == null) {
            throw new CallerNotAllowedException("not a servlet request");
        }
        return caller(request);
    }
}
