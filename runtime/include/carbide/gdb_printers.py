"""gdb pretty-printers for Carbide's device vocabulary, for kernels stepped through on the CPU
context (docs/user-guide.md, "Stepping through a kernel"). Thread witnesses print as their index,
views as their length and elements, shared arrays and vecs as their elements. Nothing here calls
a function in the program, so they work where gdb cannot (its "Couldn't write extended state
status").

Load it with `gdb -x .gdbinit` in a project made by `carbide new`, or `source` this file.
"""
import re

import gdb
import gdb.printing


def _elements(pointer, count):
    for i in range(count):
        yield f"[{i}]", (pointer + i).dereference()


class WitnessPrinter:
    """A thread's index: `index_1d_witness 37`, `index_2d_witness (row 3, col 5)`."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        kind = self.value.type.strip_typedefs().unqualified().tag.split("::")[-1]
        fields = {field.name for field in self.value.type.strip_typedefs().fields()}
        if "row_" in fields:
            return f"{kind} (row {int(self.value['row_'])}, col {int(self.value['col_'])})"
        return f"{kind} {int(self.value['value_'])}"


class ViewPrinter:
    """A 1-D view: its type, its length, then its elements (as many as `set print elements`)."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        return f"{self.value.type.strip_typedefs().unqualified()} of {int(self.value['size_'])} elements"

    def children(self):
        return _elements(self.value["data_"], int(self.value["size_"]))

    def display_hint(self):
        return "array"


class View2dPrinter:
    """A 2-D view: its shape, its pitch and where its elements start."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        v = self.value
        fields = {field.name for field in v.type.strip_typedefs().fields()}
        data = v["data_"] if "data_" in fields else v["elements_"]["data_"]  # span2d keeps a span
        return (f"{v.type.strip_typedefs().unqualified()} of {int(v['rows_'])} x {int(v['cols_'])} "
                f"(pitch {int(v['pitch_'])}) at {data}")


class SharedArrayPrinter:
    """A block's shared array: its elements, as this block's threads see them."""

    def __init__(self, value):
        self.value = value

    def size(self):
        fields = {field.name for field in self.value.type.strip_typedefs().fields() if field.name}
        if "size_" in fields:  # the dynamic array holds its length
            return int(self.value["size_"])
        for base in self.value.type.strip_typedefs().fields():
            if base.is_base_class and "size_" in {f.name for f in base.type.fields()}:
                return int(self.value[base]["size_"])
        extent = re.search(r",\s*(\d+)(?:ul|UL|u|U)?\s*>$", str(self.value.type.strip_typedefs()))
        return int(extent.group(1)) if extent else 0

    def to_string(self):
        return f"{self.value.type.strip_typedefs().unqualified()} of {self.size()} elements"

    def children(self):
        return _elements(self.value["data_"], self.size())

    def display_hint(self):
        return "array"


class VecPrinter:
    """A thread's carbide::vec<T, K>: its K values."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        return str(self.value.type.strip_typedefs().unqualified())

    def children(self):
        values = self.value["values"]
        count = values.type.range()[1] + 1
        return ((f"[{i}]", values[i]) for i in range(count))

    def display_hint(self):
        return "array"


def carbide_printers():
    printers = gdb.printing.RegexpCollectionPrettyPrinter("carbide")
    printers.add_printer("witness", r"^carbide::thread::\w+_witness$", WitnessPrinter)
    printers.add_printer("view", r"^carbide::(span|disjoint_span|atomic_span)<.*>$", ViewPrinter)
    printers.add_printer("view2d", r"^carbide::(span2d|disjoint_span2d)<.*>$", View2dPrinter)
    printers.add_printer("shared", r"^carbide::shared_array<.*>$", SharedArrayPrinter)
    printers.add_printer("vec", r"^carbide::vec<.*>$", VecPrinter)
    return printers


gdb.printing.register_pretty_printer(gdb.current_objfile(), carbide_printers(), replace=True)
