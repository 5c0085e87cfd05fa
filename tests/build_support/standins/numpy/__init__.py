"""Stand-in for numpy: enough names for bokeh and panel to import; no arrays."""
class _Meta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Scalar
class _Scalar(metaclass=_Meta):
    def __init__(self, *a, **k):
        pass
class generic(_Scalar): pass
class number(generic): pass
class integer(number): pass
class signedinteger(integer): pass
class unsignedinteger(integer): pass
class floating(number): pass
class complexfloating(number): pass
class bool_(generic): pass
class datetime64(generic): pass
class timedelta64(generic): pass
class str_(generic): pass
class bytes_(generic): pass
class object_(generic): pass
class void(generic): pass
class ndarray:
    pass
class dtype:
    def __init__(self, spec=None, *a, **k):
        self.spec = spec
        self.name = getattr(spec, "__name__", str(spec))
        self.kind = "O"
        self.itemsize = 8
    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name
    def __hash__(self):
        return hash(self.name)
for _n in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intc", "intp", "uint"]:
    globals()[_n] = type(_n, (signedinteger if _n.startswith("int") else unsignedinteger,), {})
for _n in ["float16", "float32", "float64", "double", "longdouble"]:
    globals()[_n] = type(_n, (floating,), {})
int_ = int64
float_ = float64
complex64 = complex128 = complexfloating
nan = float("nan")
inf = float("inf")
pi = 3.141592653589793
e = 2.718281828459045
newaxis = None
__version__ = "0.0-standin"
class _Namespace:
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _unsupported
def _unsupported(*a, **k):
    raise NotImplementedError("numpy stand-in")
ma = _Namespace()
random = _Namespace()
testing = _Namespace()
typing = _Namespace()
lib = _Namespace()
def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _unsupported
