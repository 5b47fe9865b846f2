#!/usr/bin/env python3
"""Reads the field files that test_io's FieldFiles test leaves in a folder, as users will: with h5py (the
HDF5 files, and the XDMF files' references into them) or with VTK's XML reader (the .pvd's .vti files).
Writes nothing. Exits 77, printing SKIPPED, where the module is missing.

    check_field_files.py h5py|vtk FOLDER
"""
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

# What tests/io/test_hdf5.cpp (FieldFiles) writes.
NX, NY = 6, 4
X0, Y0, DX, DY = -1.0, 0.5, 0.25, 0.5
STEPS = (0, 10, 20)
FIELDS = ("u", "v")


def skip(module):
    print(f"SKIPPED: python3 module {module} not found ({sys.executable})")
    sys.exit(77)


def expected(np, step, k):
    j, i = np.mgrid[0:NY, 0:NX]
    return (step * 1000 + k * 100 + j * 10 + i) / 8.0


def check_xdmf(h5py, np, xmf, folder, dtype):
    """Every step's time, every field's dataset: the path exists, with the stated shape and precision."""
    collection = ET.parse(xmf).getroot().find("Domain/Grid")
    assert collection.get("CollectionType") == "Temporal", collection.attrib
    grids = collection.findall("Grid")
    assert [float(g.find("Time").get("Value")) for g in grids] == [s / 30.0 for s in STEPS]
    for grid in grids:
        assert grid.find("Topology").get("Dimensions") == f"1 {NY} {NX}"
        origin, spacing = (item.text.split() for item in grid.find("Geometry").findall("DataItem"))
        assert [float(x) for x in origin] == [0.0, Y0 + DY / 2, X0 + DX / 2], origin
        assert [float(x) for x in spacing] == [1.0, DY, DX], spacing
        assert [a.get("Name") for a in grid.findall("Attribute")] == list(FIELDS)
        for attribute in grid.findall("Attribute"):
            item = attribute.find("DataItem")
            assert item.get("Format") == "HDF" and item.get("Dimensions") == f"{NY} {NX}"
            assert int(item.get("Precision")) == np.dtype(dtype).itemsize
            file, dataset = item.text.strip().split(":")
            with h5py.File(folder / file, "r") as f:
                assert f[dataset].shape == (NY, NX) and f[dataset].dtype == dtype, dataset


def check_h5py(folder):
    try:
        import h5py
        import numpy as np
    except ImportError:
        skip("h5py")
    for name, dtype in (("series_f32", np.float32), ("series_f64", np.float64)):
        with h5py.File(folder / f"{name}.h5", "r") as f:
            a = f.attrs
            assert (a["nx"], a["ny"]) == (NX, NY) and a["nx"].dtype == np.int64, dict(a)
            assert (a["x0"], a["y0"], a["dx"], a["dy"]) == (X0, Y0, DX, DY), dict(a)
            if name == "series_f32":
                assert json.loads(a["config"]) == {"model": "gray_scott", "note": "\u00e9"}, a["config"]
            assert list(f["steps"]) == [f"{s:010d}" for s in STEPS], list(f["steps"])
            for step in STEPS:
                group = f["steps"][f"{step:010d}"]
                assert group.attrs["step"] == step and group.attrs["time"] == step / 30.0, dict(group.attrs)
                for k, field in enumerate(FIELDS):
                    d = group[field]
                    assert d.dtype == dtype and d.shape == (NY, NX), (d.dtype, d.shape)
                    assert d.chunks is None and d.compression is None, (d.chunks, d.compression)
                    assert np.array_equal(d[()], expected(np, step, k).astype(dtype)), (name, step, field)
        check_xdmf(h5py, np, folder / f"{name}.xmf", folder, dtype)
    print("h5py reads the HDF5 files and every dataset the XDMF files name")


def check_vtk(folder):
    try:
        import numpy as np
        from vtkmodules.util.numpy_support import vtk_to_numpy
        from vtkmodules.vtkIOXML import vtkXMLImageDataReader
    except ImportError:
        skip("vtk")
    datasets = ET.parse(folder / "fields.pvd").getroot().findall("Collection/DataSet")
    assert [float(d.get("timestep")) for d in datasets] == [s / 30.0 for s in STEPS]
    for step, dataset in zip(STEPS, datasets):
        reader = vtkXMLImageDataReader()
        reader.SetFileName(str(folder / dataset.get("file")))
        reader.Update()
        image = reader.GetOutput()
        assert image.GetDimensions() == (NX, NY, 1), image.GetDimensions()
        assert image.GetOrigin() == (X0 + DX / 2, Y0 + DY / 2, 0.0), image.GetOrigin()
        assert image.GetSpacing() == (DX, DY, 1.0), image.GetSpacing()
        assert image.GetPoint(NX + 1) == (X0 + 1.5 * DX, Y0 + 1.5 * DY, 0.0)  # cell (1, 1)'s centre
        for k, field in enumerate(FIELDS):
            values = vtk_to_numpy(image.GetPointData().GetArray(field))
            assert values.dtype == np.float32, values.dtype
            assert np.array_equal(values.reshape(NY, NX), expected(np, step, k)), (step, field)
    print("VTK reads every .vti the .pvd lists")


if __name__ == "__main__":
    reader, folder = sys.argv[1], Path(sys.argv[2])
    {"h5py": check_h5py, "vtk": check_vtk}[reader](folder)
