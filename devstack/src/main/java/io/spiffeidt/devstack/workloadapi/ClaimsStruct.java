package io.spiffeidt.devstack.workloadapi;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.Collection;
import java.util.Date;
import java.util.Map;

/** Turns JWT claims (JSON values) into the {@code google.protobuf.Struct} of ValidateJWTSVID. */
final class ClaimsStruct {

    private ClaimsStruct() {}

    static Struct of(Map<String, ?> claims) {
        Struct.Builder struct = Struct.newBuilder();
        claims.forEach((name, value) -> struct.putFields(name, value(value)));
        return struct.build();
    }

    private static Value value(Object value) {
        if (value == null) {
            return Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
        }
        if (value instanceof String s) {
            return Value.newBuilder().setStringValue(s).build();
        }
        if (value instanceof Boolean b) {
            return Value.newBuilder().setBoolValue(b).build();
        }
        if (value instanceof Number n) {
            return Value.newBuilder().setNumberValue(n.doubleValue()).build();
        }
        if (value instanceof Date d) {
            return Value.newBuilder().setNumberValue(d.getTime() / 1000L).build();
        }
        if (value instanceof Map<?, ?> m) {
            Struct.Builder struct = Struct.newBuilder();
            m.forEach((k, v) -> struct.putFields(String.valueOf(k), value(v)));
            return Value.newBuilder().setStructValue(struct).build();
        }
        if (value instanceof Collection<?> c) {
            ListValue.Builder list = ListValue.newBuilder();
            c.forEach(v -> list.addValues(value(v)));
            return Value.newBuilder().setListValue(list).build();
        }
        return Value.newBuilder().setStringValue(String.valueOf(value)).build();
    }
}
