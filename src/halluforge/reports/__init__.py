"""Reports: run summaries, tables shaped like the papers', analyses and the console view.

The summary holds rows with confidence intervals; tables and analyses render it as Markdown;
the console module prints it with rich. Only this package and ``cli/`` print.
"""
