package mpi;

/** The predefined datatypes of one element ({@code MPI.INT}, ..., {@code MPI.OBJECT}) and the markers LB, UB. */
public class BasicType extends Datatype {
    BasicType(final Base base) {
        this.baseType = base.code;
        this.shape = Base.MARKER == base ? Shape.marker() : Shape.basic(base);
    }
}
