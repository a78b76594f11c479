package io.spiffeidt.support.server;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds request bodies before anything buffers them: a declared {@code Content-Length} over the
 * limit is answered 413 {@code LIMIT_EXCEEDED} at once; a body without a declared length is counted
 * while read and fails with {@link BodyTooLargeException} (mapped to 413 by the problem details
 * advice). The limit (1 MiB) is well above the largest document (a DVID with proof, ~120 KB; the
 * document limit is 256 KiB). Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class RequestBodyLimitFilter extends OncePerRequestFilter {

    /** The largest request body accepted, bytes. */
    public static final long MAX_BODY = 1024 * 1024;

    private static final byte[] PROBLEM =
            ("{\"type\":\"urn:spiffeidt:problem:limit_exceeded\",\"title\":\"LIMIT_EXCEEDED\","
                            + "\"status\":413,\"detail\":\"LIMIT_EXCEEDED: request body over the limit\",\"code\":\"LIMIT_EXCEEDED\"}")
                    .getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > MAX_BODY) {
            response.setStatus(413);
            response.setContentType("application/problem+json");
            response.setHeader("Connection", "close");
            response.setContentLength(PROBLEM.length);
            response.getOutputStream().write(PROBLEM);
            return;
        }
        chain.doFilter(request.getContentLengthLong() < 0 ? new Bounded(request) : request, response);
    }

    /** Thrown while reading a body without declared length that goes over the limit. */
    public static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException() {
            super("request body over the limit");
        }
    }

    private static final class Bounded extends HttpServletRequestWrapper {
        private ServletInputStream stream;

        Bounded(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream());
            }
            return stream;
        }
    }

    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream delegate;
        private long count;

        CountingStream(ServletInputStream delegate) {
            this.delegate = delegate;
        }

        private int counted(int n) throws BodyTooLargeException {
            if (n > 0) {
                count += n;
                if (count > MAX_BODY) {
                    throw new BodyTooLargeException();
                }
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return counted(delegate.read(b, off, len));
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
