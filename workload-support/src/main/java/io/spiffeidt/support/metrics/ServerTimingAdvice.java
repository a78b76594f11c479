package io.spiffeidt.support.metrics;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Adds the request's {@code Server-Timing} header (and its sibling {@code Wire-Bytes}, when the
 * request made downstream calls) to every response body written by a controller or
 * an exception handler (answers and problem details alike), at the last moment before the body: the
 * header must precede it on the wire.
 */
@ControllerAdvice
public class ServerTimingAdvice implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(
            Object body,
            MethodParameter returnType,
            MediaType selectedContentType,
            Class<? extends HttpMessageConverter<?>> selectedConverterType,
            ServerHttpRequest request,
            ServerHttpResponse response) {
        ServerTiming timing = ServerTiming.current();
        if (timing != null) {
            response.getHeaders().set(ServerTiming.HEADER, timing.headerValue());
        }
        WireBytes bytes = WireBytes.current();
        if (bytes != null && !bytes.entries().isEmpty()) {
            response.getHeaders().set(WireBytes.HEADER, bytes.headerValue());
        }
        return body;
    }
}
