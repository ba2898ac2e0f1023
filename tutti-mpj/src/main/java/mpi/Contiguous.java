package mpi;

/** {@code count} items of an old type one after another: {@link Datatype#Contiguous}, and the pair types. */
public class Contiguous extends Datatype {
    Contiguous(final int count, final Datatype oldtype) {
        final Shape old = checkedOld("Datatype.Contiguous", oldtype);
        nonNegative("Datatype.Contiguous", "count", count);
        final int[] d = new int[count];
        for (int i = 0; i < count; i++) {
            d[i] = i * old.extent();
        }
        this.baseType = oldtype.baseType;
        this.shape = Shape.copies(d, old);
    }
}
