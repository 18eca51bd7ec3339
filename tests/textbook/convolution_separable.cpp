// convolution_separable.cpp — cuda-samples 2_Concepts_and_Techniques/convolutionSeparable
// (`convolutionRowsKernel`, `convolutionColumnsKernel`): the port is samples/convolution, whose
// header lists what changed from the textbook. It is accepted by `carbide check` with no finding:
// RUN: %carbide check %samples/convolution/convolution.cpp 2>&1 | count 0
