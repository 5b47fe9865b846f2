# Python.Install: `cmake --install BUILD --component python --prefix PREFIX`, then the package imports
# from PREFIX/SITE alone (not from the build tree) and lists the models.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --component python --prefix ${PREFIX} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
set(script "import pdex, os; assert pdex.__file__.startswith(os.environ['SITE_DIR']), pdex.__file__; print(pdex.__file__, [m['name'] for f in pdex.models()['families'] for m in f['models']][:3])")
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PREFIX}/${SITE} SITE_DIR=${PREFIX}/${SITE}
                        ${PYTHON} -c "${script}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed package does not import: ${rc}")
endif()
