"""Reports: the natal report (routes.py, service.py) and the HR talent assessment (hr_routes.py,
hr_service.py), one report-job runner for both, the report rows (models.py) and the HTML/PDF
rendering (render/).
"""
